import { createWebhook } from '../../shared/domain/webhooks/create-webhook';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { createWebhookRoute } from '../../shared/routes/webhooks/create-webhook';
import { webhookSecretDeps } from '../../shared/wiring/webhook-secret-deps';

/** POST /api/v1/organization/{orgId}/webhooks: the answer carries the signing secret, this once. */
export const handler = idempotentApiHandler(createWebhookRoute, async ({ caller, body }) =>
  json(201, await createWebhook(webhookSecretDeps(), caller.orgId, body)),
);
