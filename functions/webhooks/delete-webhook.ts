import { deleteWebhook } from '../../shared/domain/webhooks/delete-webhook';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { deleteWebhookRoute } from '../../shared/routes/webhooks/delete-webhook';
import { webhookDeps } from '../../shared/wiring/webhook-deps';

/** DELETE /api/v1/organization/{orgId}/webhooks/{webhookId} */
export const handler = apiHandler(deleteWebhookRoute, async ({ caller, path }) => {
  await deleteWebhook(webhookDeps(), caller.orgId, path.webhookId);
  return json(200, { success: true });
});
