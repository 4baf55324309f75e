import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const deleteWebhookRoute = defineRoute({
  name: 'deleteWebhook',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
  handler: 'functions/webhooks/delete-webhook',
  summary: 'Delete a webhook endpoint: it receives nothing more',
  access: memberRoute('webhooks:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const deleteWebhookDocs = (): OperationDocs => ({
  description: 'Deletes an endpoint: it receives nothing more, pending deliveries included.',
  responses: { 200: SuccessOnly },
  errors: { 404: ['WEBHOOK_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.deleteWebhookId }, status: 200 }),
});
