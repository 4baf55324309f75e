import { WebhookList } from '../../schemas/webhooks';
import { webhook } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listWebhooksRoute = defineRoute({
  name: 'listWebhooks',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/webhooks',
  handler: 'functions/webhooks/list-webhooks',
  summary: "List the organization's webhook endpoints",
  access: memberRoute('webhooks:read'),
  permissions: { table: ['GetItem', 'Query'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listWebhooksDocs = (): OperationDocs => ({
  description: "Lists the organization's webhook endpoints, never their secrets.",
  responses: { 200: WebhookList },
  errors: {},
  examples: { responses: { 200: { webhooks: [webhook] } } },
  sample: () => ({ credential: 'orgKey', status: 200 }),
});
