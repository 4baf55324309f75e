import { rotateWebhookSecret } from '../../shared/domain/webhooks/rotate-webhook-secret';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { rotateWebhookSecretRoute } from '../../shared/routes/webhooks/rotate-webhook-secret';
import { webhookSecretDeps } from '../../shared/wiring/webhook-secret-deps';

/** POST /api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret: the answer carries the new secret, this once. */
export const handler = idempotentApiHandler(rotateWebhookSecretRoute, async ({ caller, path }) =>
  json(200, await rotateWebhookSecret(webhookSecretDeps(), caller.orgId, path.webhookId)),
);
