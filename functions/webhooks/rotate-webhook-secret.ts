import { webhookSecretCipher } from '../../shared/crypto/configured-cipher';
import { webhookDeps } from '../../shared/domain/webhooks/webhook-deps';
import { rotateWebhookSecret } from '../../shared/domain/webhooks/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { rotateWebhookSecretRoute } from '../../shared/routes/webhooks/rotate-webhook-secret';

/** POST /api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret: the answer carries the new secret, this once. */
export const handler = apiHandler(rotateWebhookSecretRoute, async ({ caller, path }) => json(200, await rotateWebhookSecret({ ...webhookDeps(), cipher: webhookSecretCipher() }, caller.orgId, path.webhookId)));
