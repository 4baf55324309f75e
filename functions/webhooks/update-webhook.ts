import { updateWebhook } from '../../shared/domain/webhooks/update-webhook';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateWebhookRoute } from '../../shared/routes/webhooks/update-webhook';
import { webhookDeps } from '../../shared/wiring/webhook-deps';

/** PATCH /api/v1/organization/{orgId}/webhooks/{webhookId} */
export const handler = apiHandler(updateWebhookRoute, async ({ caller, path, body }) =>
  json(200, await updateWebhook(webhookDeps(), caller.orgId, path.webhookId, body)),
);
