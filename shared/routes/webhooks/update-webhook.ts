import { UpdateWebhookBody, Webhook } from '../../schemas/webhooks';
import { webhook } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateWebhookRoute = defineRoute({
  name: 'updateWebhook',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}',
  handler: 'functions/webhooks/update-webhook',
  summary: "Change a webhook endpoint's URL, description, events, or enable or disable it",
  access: memberRoute('webhooks:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  request: { body: UpdateWebhookBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateWebhookDocs = (): OperationDocs => ({
  description: "Changes an endpoint's URL, description or events, or disables it or enables it again.",
  responses: { 200: Webhook },
  errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 404: ['WEBHOOK_NOT_FOUND'] },
  examples: {
    request: { enabled: false },
    responses: { 200: { ...webhook, enabled: false, disabled_reason: 'manual', updated_at: '2026-11-20T10:00:00.000Z' } },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { webhookId: ids.webhookId },
    body: { events: ['recording.upload_failed', 'invite.email_failed'], description: 'Failures, for the support team' },
    status: 200,
  }),
});
