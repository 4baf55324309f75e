import { createWebhook } from '../../shared/domain/webhooks/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { createWebhookRoute } from '../../shared/routes/webhooks/create-webhook';
import { webhookSecretDeps } from '../../shared/wiring/webhook-secret-deps';

/** POST /api/v1/organization/{orgId}/webhooks: the answer carries the signing secret, this once. */
export const handler = apiHandler(createWebhookRoute, async ({ caller, body }) => json(201, await createWebhook(webhookSecretDeps(), caller.orgId, body)));
