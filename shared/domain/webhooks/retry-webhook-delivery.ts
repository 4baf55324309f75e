import { ConflictError } from '../../core/errors';
import { WriteConflict } from '../../storage/transactions';
import { getDelivery, requestDeliveryRetry } from '../../storage/webhook-deliveries';
import { DELIVERY_ID } from '../../storage/webhook-items';
import { DeliveryDeps, deliveryNotFound, newDispatchId } from './deliveries';
import { existingWebhook } from './webhook-lookup';
import { deliveryView } from './webhook-views';

/**
 * Sends a delivery again now, whatever its status: a failed one (the endpoint is fixed), or
 * a succeeded one (the receiver lost it: a replay, with the same event id). It goes back to
 * pending and continues from its attempts so far: one more attempt, and the schedule's
 * remaining retries if that fails. 409 WEBHOOK_DISABLED when the endpoint is disabled,
 * 409 DELIVERY_IN_PROGRESS while an attempt is under way.
 */
export async function retryWebhookDelivery(deps: DeliveryDeps, orgId: string, webhookId: string, deliveryId: string) {
  const webhook = await existingWebhook(deps.db, orgId, webhookId);
  if (!DELIVERY_ID.test(deliveryId)) throw deliveryNotFound(deliveryId);
  const delivery = await getDelivery(deps.db, orgId, webhookId, deliveryId);
  if (!delivery) throw deliveryNotFound(deliveryId);
  if (!webhook.enabled) throw new ConflictError('WEBHOOK_DISABLED', `Webhook endpoint ${webhookId} is disabled; enable it first.`);
  try {
    return deliveryView(await requestDeliveryRetry(deps.db, delivery, newDispatchId(), deps.now().toISOString()));
  } catch (error) {
    if (error instanceof WriteConflict)
      throw new ConflictError('DELIVERY_IN_PROGRESS', `Delivery ${deliveryId} is being attempted right now; try again in a minute.`);
    throw error;
  }
}
