import { config } from '../config';
import { webhookSecretCipher } from '../crypto/configured-cipher';
import type { DeliveryDeps } from '../domain/webhooks/deliveries';
import { cachedSecrets, type DispatchDeps } from '../domain/webhooks/dispatch';
import type { WebhookDeps } from '../domain/webhooks/webhooks';
import { countMetric } from '../observability/metrics';
import { table } from '../storage/dynamo';
import { postWebhook } from '../webhooks/http-sender';

/**
 * The webhooks area's composition root, built from config on first use and kept for the warm
 * function. Each export is its own function: only the functions that make or read signing
 * secrets (create, rotate, the dispatcher) carry the KMS client.
 */

let webhooks: Omit<WebhookDeps, 'cipher'> | undefined;
let deliveries: DeliveryDeps | undefined;
let dispatch: DispatchDeps | undefined;

/** The endpoints' routes but create and rotate: the table, the clock and where endpoints may point. */
export function webhookDeps(): Omit<WebhookDeps, 'cipher'> {
  return (webhooks ??= { db: table(), now: () => new Date(), policy: { allowLocalUrls: config().webhooks.allowLocalUrls } });
}

/** Creating an endpoint and rotating its secret: with the signing secrets' cipher. */
export function webhookSecretDeps(): WebhookDeps {
  return { ...webhookDeps(), cipher: webhookSecretCipher() };
}

/** The deliveries (list, retry, test) and the fan-out consumer: the table and the clock. */
export function deliveryDeps(): DeliveryDeps {
  return (deliveries ??= { db: table(), now: () => new Date() });
}

/** The dispatcher's: the decrypted secrets' cache and the HTTP sender live as long as the warm function. */
export function dispatchDeps(): DispatchDeps {
  const policy = { allowLocalUrls: config().webhooks.allowLocalUrls };
  return (dispatch ??= { db: table(), now: () => new Date(), secretsOf: cachedSecrets(webhookSecretCipher()), send: (request) => postWebhook(request, { policy }), countMetric });
}
