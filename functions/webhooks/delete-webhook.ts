import { deleteWebhook } from '../../shared/domain/webhooks/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { deleteWebhookRoute } from '../../shared/routes/webhooks/delete-webhook';
import { table } from '../../shared/storage/dynamo';

/** DELETE /api/v1/organization/{orgId}/webhooks/{webhookId} */
export const handler = apiHandler(deleteWebhookRoute, async ({ caller, path }) => {
  await deleteWebhook({ db: table(), now: () => new Date() }, caller.orgId, path.webhookId);
  return json(200, { success: true });
});
