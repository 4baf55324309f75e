import { ApiKey } from '../../schemas/api-keys';
import { orgKey } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const revokeApiKeyRoute = defineRoute({
  name: 'revokeApiKey',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/api-keys/{keyId}',
  handler: 'functions/api-keys/revoke-api-key',
  summary: 'Revoke an API key: refused once the authorizer cache expires',
  access: { idToken: { minRole: 'viewer' } },
  // One transaction: the key put, its secret marked revoked, a grace-period secret deleted.
  permissions: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const revokeApiKeyDocs = (): OperationDocs => ({
  description: 'Revokes an API key for good; the authorizer refuses it once its cache expires (within 60 seconds).',
  responses: { 200: ApiKey },
  errors: { 404: ['KEY_NOT_FOUND'], 409: ['CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { ...orgKey, status: 'revoked', revoked_at: '2026-11-20T10:00:00.000Z' } } },
  sample: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, status: 200 }),
});
