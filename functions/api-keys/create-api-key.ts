import { apiKeyDeps } from '../../shared/domain/api-keys/api-key-deps';
import { createApiKey } from '../../shared/domain/api-keys/api-keys';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';

/** POST /api/v1/organization/{orgId}/api-keys: the answer carries the key's secret, this once. */
export const handler = apiHandler('createApiKey', async ({ caller, body }) => json(201, await createApiKey(apiKeyDeps(), caller, body)));
