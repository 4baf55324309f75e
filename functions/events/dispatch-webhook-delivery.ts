import { dispatchWebhookDelivery, dispatchRefOf } from '../../shared/domain/webhooks/dispatch-webhook-delivery';
import { eventConsumer } from '../../shared/events/event-consumer';
import { delayMessage } from '../../shared/events/queue-retry';
import { dispatchDeps } from '../../shared/wiring/webhook-secret-deps';

/**
 * The webhook dispatcher: one attempt per `webhook.delivery_due` message, the batch's
 * deliveries in parallel; a failed attempt with retries left keeps its message out of sight
 * until the next is due.
 */
export const handler = eventConsumer(
  'dispatchWebhookDelivery',
  async (event) => {
    const outcome = await dispatchWebhookDelivery(dispatchDeps(), dispatchRefOf(event));
    return outcome.kind === 'retry' ? { retryAfterSeconds: outcome.afterSeconds } : undefined;
  },
  { parallel: true, retryLater: delayMessage },
);
