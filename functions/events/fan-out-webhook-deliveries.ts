import { fanOutEvent } from '../../shared/domain/webhooks/fan-out';
import { eventConsumer } from '../../shared/events/event-consumer';
import { table } from '../../shared/storage/dynamo';

/** The webhook fan-out: each public event becomes one delivery per endpoint of its organization that receives it (a batch's events at once). */
export const handler = eventConsumer(
  'webhookFanOut',
  async (event) => {
    await fanOutEvent({ db: table(), now: () => new Date() }, event);
  },
  { parallel: true },
);
