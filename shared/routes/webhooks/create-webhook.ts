import { CreatedWebhook, CreateWebhookBody } from '../../schemas/webhooks';
import { webhook } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const createWebhookRoute = defineRoute({
  name: 'createWebhook',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/webhooks',
  handler: 'functions/webhooks/create-webhook',
  summary: 'Subscribe an HTTPS endpoint to events; the answer holds its signing secret, shown this once',
  access: memberRoute('webhooks:write'),
  // UpdateItem: the organization's endpoint count, in the same transaction.
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecretKey: ['GenerateDataKey'] },
  request: { body: CreateWebhookBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createWebhookDocs = (): OperationDocs => {
  const WEBHOOK_SECRET = 'whsec_BwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSY=';
  return {
    description:
      'Subscribes an HTTPS endpoint to event types: each event is POSTed to it, signed (Standard Webhooks), retried for about 30 hours. The answer holds the signing secret, shown this once (docs/webhooks.md).',
    responses: { 201: CreatedWebhook },
    errors: { 400: ['WEBHOOK_URL_NOT_ALLOWED'], 409: ['WEBHOOK_LIMIT_REACHED', 'CONCURRENT_UPDATE'] },
    examples: {
      request: {
        url: 'https://crm.demo.example/hooks/voice-org',
        description: 'Sync recordings to the CRM',
        events: ['recording.uploaded', 'recording.updated'],
      },
      responses: { 201: { ...webhook, secret: WEBHOOK_SECRET } },
    },
    sample: (ids) => ({
      credential: 'orgKey',
      body: { url: ids.webhookUrl, description: 'CRM sync', events: ['recording.uploaded', 'recording.deleted'] },
      status: 201,
    }),
  };
};
