import { Webhook } from '../../schemas/webhooks';
import { webhook } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getWebhookRoute = defineRoute({
  name: 'getWebhook',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
  handler: 'functions/webhooks/get-webhook',
  summary: 'Read a webhook endpoint (never its secret)',
  access: memberRoute('webhooks:read'),
  permissions: { table: ['GetItem', 'Query'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getWebhookDocs = (): OperationDocs => ({
  description: 'Reads a webhook endpoint, never its secret.',
  responses: { 200: Webhook },
  errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  examples: { responses: { 200: webhook } },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 200 }),
});
