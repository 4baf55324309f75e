import { RotatedWebhookSecret } from '../../schemas/webhooks';
import { webhook } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const rotateWebhookSecretRoute = defineRoute({
  name: 'rotateWebhookSecret',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret',
  handler: 'functions/webhooks/rotate-webhook-secret',
  summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
  access: memberRoute('webhooks:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem'], webhookSecretKey: ['GenerateDataKey'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const rotateWebhookSecretDocs = (): OperationDocs => ({
  description:
    'Replaces the signing secret, shown this once; the previous one keeps signing beside it for 24 hours, so receivers can switch without missing a delivery.',
  responses: { 200: RotatedWebhookSecret },
  errors: { 404: ['WEBHOOK_NOT_FOUND'] },
  examples: {
    responses: {
      200: {
        ...webhook,
        updated_at: '2026-11-20T10:00:00.000Z',
        secret: 'whsec_KCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkc=',
        previous_secret_expires_at: '2026-11-21T10:00:00.000Z',
      },
    },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { webhookId: ids.webhookId }, status: 200 }),
});
