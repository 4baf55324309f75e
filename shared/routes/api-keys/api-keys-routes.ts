import { createApiKeyDocs, createApiKeyRoute } from './create-api-key';
import { getApiKeyDocs, getApiKeyRoute } from './get-api-key';
import { listApiKeysDocs, listApiKeysRoute } from './list-api-keys';
import { revokeApiKeyDocs, revokeApiKeyRoute } from './revoke-api-key';
import { rotateApiKeyDocs, rotateApiKeyRoute } from './rotate-api-key';
import { defineRouteArea } from '../route-definition';

/** Organization and personal API keys. */
export const API_KEYS_ROUTES = defineRouteArea({
  area: 'api-keys',
  stack: 'api-keys',
  routes: [
    { route: listApiKeysRoute, docs: listApiKeysDocs },
    { route: createApiKeyRoute, docs: createApiKeyDocs },
    { route: getApiKeyRoute, docs: getApiKeyDocs },
    { route: rotateApiKeyRoute, docs: rotateApiKeyDocs },
    { route: revokeApiKeyRoute, docs: revokeApiKeyDocs },
  ],
});
