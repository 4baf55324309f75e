import { apiKeyDeps } from '../../shared/domain/api-keys/api-key-deps';
import { listApiKeys } from '../../shared/domain/api-keys/api-keys';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';

/** GET /api/v1/organization/{orgId}/api-keys: owners and admins see every key, others their own personal keys. */
export const handler = apiHandler('listApiKeys', async ({ caller, query }) => json(200, await listApiKeys(apiKeyDeps(), caller, query)));
