import { ApiKeyList, ListApiKeysQuery } from '../../schemas/api-keys';
import { orgKey } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listApiKeysRoute = defineRoute({
  name: 'listApiKeys',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/api-keys',
  handler: 'functions/api-keys/list-api-keys',
  summary: "List API keys: owners and admins see the organization's keys and every personal key, others their own personal keys",
  // Keys never manage keys: ID tokens only. What each role sees and may do is decided in the domain.
  access: { idToken: { minRole: 'viewer' } },
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListApiKeysQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listApiKeysDocs = (): OperationDocs => ({
  description:
    "Lists API keys, newest first: owners and admins see the organization's keys and every personal key (`user_id` narrows to one member's); others their own personal keys.",
  responses: { 200: ApiKeyList },
  errors: {},
  examples: { responses: { 200: { api_keys: [orgKey], pagination: { limit: 20, next_cursor: null } } } },
  sample: () => ({ credential: 'ownerToken', query: { limit: '20' }, status: 200 }),
});
