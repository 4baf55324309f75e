import { ApiKey } from '../../schemas/api-keys';
import { orgKey } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getApiKeyRoute = defineRoute({
  name: 'getApiKey',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/api-keys/{keyId}',
  handler: 'functions/api-keys/get-api-key',
  summary: 'Read an API key (never its secret)',
  access: { idToken: { minRole: 'viewer' } },
  permissions: { table: ['GetItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getApiKeyDocs = (): OperationDocs => ({
  description: 'Reads an API key, never its secret.',
  responses: { 200: ApiKey },
  errors: { 404: ['KEY_NOT_FOUND'] },
  examples: { responses: { 200: orgKey } },
  sample: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, status: 200 }),
});
