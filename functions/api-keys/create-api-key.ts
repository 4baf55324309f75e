import { createApiKey } from '../../shared/domain/api-keys/create-api-key';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { countMetric } from '../../shared/observability/metrics';
import { createApiKeyRoute } from '../../shared/routes/api-keys/create-api-key';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** POST /api/v1/organization/{orgId}/api-keys: the answer carries the key's secret, this once. */
export const handler = idempotentApiHandler(createApiKeyRoute, async ({ caller, body }) => {
  const created = await createApiKey(apiKeyDeps(), caller, body);
  countMetric('ApiKeysCreated');
  return json(201, created);
});
