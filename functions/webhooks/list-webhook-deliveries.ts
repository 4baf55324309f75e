import { listWebhookDeliveries } from '../../shared/domain/webhooks/list-webhook-deliveries';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listWebhookDeliveriesRoute } from '../../shared/routes/webhooks/list-webhook-deliveries';
import { deliveryDeps } from '../../shared/wiring/webhook-deps';

/** GET /api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries?status=&limit=&cursor= */
export const handler = apiHandler(listWebhookDeliveriesRoute, async ({ caller, path, query }) =>
  json(200, await listWebhookDeliveries(deliveryDeps(), caller.orgId, path.webhookId, query)),
);
