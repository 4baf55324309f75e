import { getApiKey } from '../../shared/domain/api-keys/get-api-key';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getApiKeyRoute } from '../../shared/routes/api-keys/get-api-key';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** GET /api/v1/organization/{orgId}/api-keys/{keyId} */
export const handler = apiHandler(getApiKeyRoute, async ({ caller, path }) => json(200, await getApiKey(apiKeyDeps(), caller, path.keyId)));
