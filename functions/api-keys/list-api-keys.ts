import { listApiKeys } from '../../shared/domain/api-keys/list-api-keys';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listApiKeysRoute } from '../../shared/routes/api-keys/list-api-keys';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** GET /api/v1/organization/{orgId}/api-keys: owners and admins see every key, others their own personal keys. */
export const handler = apiHandler(listApiKeysRoute, async ({ caller, query }) => json(200, await listApiKeys(apiKeyDeps(), caller, query)));
