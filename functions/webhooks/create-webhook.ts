import { webhookSecretCipher } from '../../shared/crypto/configured-cipher';
import { webhookDeps } from '../../shared/domain/webhooks/webhook-deps';
import { createWebhook } from '../../shared/domain/webhooks/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';

/** POST /api/v1/organization/{orgId}/webhooks: the answer carries the signing secret, this once. */
export const handler = apiHandler('createWebhook', async ({ caller, body }) => json(201, await createWebhook({ ...webhookDeps(), cipher: webhookSecretCipher() }, caller.orgId, body)));
