import { listDeliveries } from '../../shared/domain/webhooks/deliveries';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listWebhookDeliveriesRoute } from '../../shared/routes/webhooks/list-webhook-deliveries';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries?status=&limit=&cursor= */
export const handler = apiHandler(listWebhookDeliveriesRoute, async ({ caller, path, query }) =>
  json(200, await listDeliveries({ db: table(), now: () => new Date() }, caller.orgId, path.webhookId, query)),
);
