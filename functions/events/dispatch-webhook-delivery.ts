import { config } from '../../shared/config';
import { webhookSecretCipher } from '../../shared/crypto/configured-cipher';
import { cachedSecrets, dispatchDelivery, dispatchRefOf, type DispatchDeps } from '../../shared/domain/webhooks/dispatch';
import { eventConsumer } from '../../shared/events/event-consumer';
import { delayMessage } from '../../shared/events/queue-retry';
import { countMetric } from '../../shared/observability/metrics';
import { table } from '../../shared/storage/dynamo';
import { postWebhook } from '../../shared/webhooks/http-sender';

let deps: DispatchDeps | undefined;

/** Built on first use and kept: the decrypted secrets' cache lives as long as the warm function. */
function dispatchDeps(): DispatchDeps {
  const policy = { allowLocalUrls: config().webhooks.allowLocalUrls };
  deps ??= { db: table(), now: () => new Date(), secretsOf: cachedSecrets(webhookSecretCipher()), send: (request) => postWebhook(request, { policy }), countMetric };
  return deps;
}

/**
 * The webhook dispatcher: one attempt per `webhook.delivery_due` message, the batch's
 * deliveries in parallel; a failed attempt with retries left keeps its message out of sight
 * until the next is due.
 */
export const handler = eventConsumer(
  'webhookDispatch',
  async (event) => {
    const outcome = await dispatchDelivery(dispatchDeps(), dispatchRefOf(event));
    return outcome.kind === 'retry' ? { retryAfterSeconds: outcome.afterSeconds } : undefined;
  },
  { parallel: true, retryLater: delayMessage },
);
