import { fanOutWebhookDeliveries } from '../../shared/domain/webhooks/fan-out-webhook-deliveries';
import { eventConsumer } from '../../shared/events/event-consumer';
import { deliveryDeps } from '../../shared/wiring/webhook-deps';

/** The webhook fan-out: each public event becomes one delivery per endpoint of its organization that receives it (a batch's events at once). */
export const handler = eventConsumer(
  'fanOutWebhookDeliveries',
  async (event) => {
    await fanOutWebhookDeliveries(deliveryDeps(), event);
  },
  { parallel: true },
);
