import { rotateApiKey } from '../../shared/domain/api-keys/rotate-api-key';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { rotateApiKeyRoute } from '../../shared/routes/api-keys/rotate-api-key';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** POST /api/v1/organization/{orgId}/api-keys/{keyId}/rotate: the answer carries the new secret, this once. */
export const handler = idempotentApiHandler(rotateApiKeyRoute, async ({ caller, path, body }) =>
  json(200, await rotateApiKey(apiKeyDeps(), caller, path.keyId, body)),
);
