import { createApiKeyDocs, createApiKeyRoute } from './create-api-key';
import { getApiKeyDocs, getApiKeyRoute } from './get-api-key';
import { listApiKeysDocs, listApiKeysRoute } from './list-api-keys';
import { revokeApiKeyDocs, revokeApiKeyRoute } from './revoke-api-key';
import { rotateApiKeyDocs, rotateApiKeyRoute } from './rotate-api-key';

/** Organization and personal API keys. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const API_KEYS_ROUTES = [
  { route: listApiKeysRoute, docs: listApiKeysDocs },
  { route: createApiKeyRoute, docs: createApiKeyDocs },
  { route: getApiKeyRoute, docs: getApiKeyDocs },
  { route: rotateApiKeyRoute, docs: rotateApiKeyDocs },
  { route: revokeApiKeyRoute, docs: revokeApiKeyDocs },
] as const;
