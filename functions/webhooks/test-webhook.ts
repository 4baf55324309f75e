import { testWebhook } from '../../shared/domain/webhooks/test-webhook';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { testWebhookRoute } from '../../shared/routes/webhooks/test-webhook';
import { deliveryDeps } from '../../shared/wiring/webhook-deps';

/** POST /api/v1/organization/{orgId}/webhooks/{webhookId}/test: 202, the delivery is on its way. */
export const handler = idempotentApiHandler(testWebhookRoute, async ({ caller, path }) =>
  json(202, await testWebhook(deliveryDeps(), caller.orgId, path.webhookId)),
);
