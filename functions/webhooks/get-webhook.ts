import { getWebhook } from '../../shared/domain/webhooks/get-webhook';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getWebhookRoute } from '../../shared/routes/webhooks/get-webhook';
import { webhookDeps } from '../../shared/wiring/webhook-deps';

/** GET /api/v1/organization/{orgId}/webhooks/{webhookId} */
export const handler = apiHandler(getWebhookRoute, async ({ caller, path }) =>
  json(200, await getWebhook(webhookDeps(), caller.orgId, path.webhookId)),
);
