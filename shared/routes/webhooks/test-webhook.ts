import { WebhookDelivery } from '../../schemas/webhooks';
import { delivery } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const testWebhookRoute = defineRoute({
  name: 'testWebhook',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/test',
  handler: 'functions/webhooks/test-webhook',
  summary: 'Send a webhook.test event to the endpoint now',
  access: memberRoute('webhooks:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const testWebhookDocs = (): OperationDocs => ({
  description: 'Sends a `webhook.test` event to the endpoint now, as a delivery you can follow in its deliveries.',
  responses: { 202: WebhookDelivery },
  errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['WEBHOOK_DISABLED'] },
  examples: {
    responses: {
      202: {
        ...delivery,
        id: 'dlv_0193a7c4e2f02f3a9c1b7d5e3f1a2b4c',
        event_id: 'evt_92eb5ffee6ae2fec3ad71c777531578f',
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        created_at: '2026-11-20T10:00:00.000Z',
        last_attempt_at: null,
        next_attempt_at: '2026-11-20T10:00:00.000Z',
        response_status: null,
        response_ms: null,
      },
    },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 202 }),
});
