import { retryWebhookDelivery } from '../../shared/domain/webhooks/retry-webhook-delivery';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { retryWebhookDeliveryRoute } from '../../shared/routes/webhooks/retry-webhook-delivery';
import { deliveryDeps } from '../../shared/wiring/webhook-deps';

/** POST /api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry: 202, attempted as soon as the pipeline carries it. */
export const handler = idempotentApiHandler(retryWebhookDeliveryRoute, async ({ caller, path }) =>
  json(202, await retryWebhookDelivery(deliveryDeps(), caller.orgId, path.webhookId, path.deliveryId)),
);
