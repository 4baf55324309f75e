import { RotateApiKeyBody, RotatedApiKey } from '../../schemas/api-keys';
import { orgKey } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const rotateApiKeyRoute = defineRoute({
  name: 'rotateApiKey',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/api-keys/{keyId}/rotate',
  handler: 'functions/api-keys/rotate-api-key',
  summary: 'Issue a new secret for the same key; the old one keeps working for the grace period asked for (0 to 24 hours)',
  access: { idToken: { minRole: 'viewer' } },
  // One transaction: the key and the new secret put, the replaced secret put with its end (or deleted), an older grace-period secret deleted.
  permissions: { table: ['GetItem', 'PutItem', 'DeleteItem'] },
  request: { body: RotateApiKeyBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const rotateApiKeyDocs = (): OperationDocs => ({
  description:
    'Issues a new secret for the same key (same id, name and scopes), shown this once; the replaced secret keeps working for the grace period asked for, up to 24 hours. Only its member rotates a personal key.',
  responses: { 200: RotatedApiKey },
  errors: { 403: ['NOT_KEY_OWNER'], 404: ['KEY_NOT_FOUND'], 409: ['KEY_REVOKED', 'KEY_EXPIRED', 'CONCURRENT_UPDATE'] },
  examples: {
    request: { grace_period_seconds: 3600 },
    responses: {
      200: {
        ...orgKey,
        prefix: 'pk_org_9e8d7c',
        rotated_at: '2026-11-20T10:00:00.000Z',
        secret: 'pk_org_9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f',
        previous_secret_expires_at: '2026-11-20T11:00:00.000Z',
      },
    },
  },
  sample: (ids) => ({ credential: 'ownerToken', path: { keyId: ids.apiKeyId }, body: { grace_period_seconds: 3600 }, status: 200 }),
});
