import { CreateApiKeyBody, CreatedApiKey } from '../../schemas/api-keys';
import { orgKey } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const createApiKeyRoute = defineRoute({
  name: 'createApiKey',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/api-keys',
  handler: 'functions/api-keys/create-api-key',
  summary: 'Create an organization key (owners and admins) or your own personal key; the answer holds the secret, shown this once',
  access: { idToken: { minRole: 'viewer' } },
  // PutItem: the managed key and its secret, in one transaction.
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: CreateApiKeyBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createApiKeyDocs = (): OperationDocs => {
  const ORG_KEY_SECRET = 'pk_org_7c3f1e9a2b4d6c8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c';
  return {
    description:
      'Creates an organization key (owners and admins) or your own personal key, with scopes within your role; the answer holds the secret, shown this once (docs/api-keys.md).',
    responses: { 201: CreatedApiKey },
    errors: { 403: ['SCOPES_EXCEED_ROLE'] },
    examples: {
      request: { kind: 'org', name: 'CRM integration', scopes: ['users:read', 'recordings:read'], rate_limit: { rate: 5, burst: 10 } },
      responses: { 201: { ...orgKey, created_at: '2026-11-20T10:00:00.000Z', last_used_at: null, secret: ORG_KEY_SECRET } },
    },
    sample: () => ({
      credential: 'ownerToken',
      body: { kind: 'personal', name: 'Laptop recorder', scopes: ['recordings:read'], expires_at: '2099-01-01T00:00:00.000Z' },
      status: 201,
    }),
  };
};
