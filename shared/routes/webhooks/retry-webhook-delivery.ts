import { WebhookDelivery } from '../../schemas/webhooks';
import { delivery } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const retryWebhookDeliveryRoute = defineRoute({
  name: 'retryWebhookDelivery',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
  handler: 'functions/webhooks/retry-webhook-delivery',
  summary: 'Send a delivery again now (a failed one too, or a succeeded one to replay it)',
  access: memberRoute('webhooks:write'),
  permissions: { table: ['GetItem', 'Query', 'UpdateItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const retryWebhookDeliveryDocs = (): OperationDocs => ({
  description: 'Sends a delivery again now, back to `pending`: a failed one, or a succeeded one to replay it.',
  responses: { 202: WebhookDelivery },
  errors: { 404: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'], 409: ['WEBHOOK_DISABLED', 'DELIVERY_IN_PROGRESS'] },
  examples: { responses: { 202: { ...delivery, status: 'pending', next_attempt_at: '2026-11-20T10:00:00.000Z' } } },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId, deliveryId: ids.deliveryId }, status: 202 }),
});
