import { ListWebhookDeliveriesQuery, WebhookDeliveryList } from '../../schemas/webhooks';
import { delivery } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listWebhookDeliveriesRoute = defineRoute({
  name: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries',
  handler: 'functions/webhooks/list-webhook-deliveries',
  summary: "List an endpoint's deliveries, newest first",
  access: memberRoute('webhooks:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListWebhookDeliveriesQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listWebhookDeliveriesDocs = (): OperationDocs => ({
  description: "Lists an endpoint's deliveries, newest first, with the outcome of each one's last attempt.",
  responses: { 200: WebhookDeliveryList },
  errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  examples: { responses: { 200: { deliveries: [delivery], pagination: { limit: 20, next_cursor: null } } } },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, query: { status: 'failed', limit: '10' }, status: 200 }),
});
