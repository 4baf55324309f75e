import { revokeApiKey } from '../../shared/domain/api-keys/revoke-api-key';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { revokeApiKeyRoute } from '../../shared/routes/api-keys/revoke-api-key';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** DELETE /api/v1/organization/{orgId}/api-keys/{keyId}: answers the revoked key. */
export const handler = apiHandler(revokeApiKeyRoute, async ({ caller, path }) =>
  json(200, await revokeApiKey(apiKeyDeps(), caller, path.keyId)),
);
