import { config } from '../config';
import type { DeliveryDeps } from '../domain/webhooks/deliveries';
import type { WebhookDeps } from '../domain/webhooks/webhook-changes';
import { table } from '../storage/dynamo';

/**
 * The webhooks area's composition root, built from config on first use and kept for the warm
 * function. What needs the signing secrets' cipher (create, rotate, the dispatcher) is in
 * webhook-secret-deps.ts: the cipher's module adds about 50 KB to every bundle that imports it,
 * even one that never calls it.
 */

let webhooks: Omit<WebhookDeps, 'cipher'> | undefined;
let deliveries: DeliveryDeps | undefined;

/** The endpoints' routes but create and rotate: the table, the clock and where endpoints may point. */
export function webhookDeps(): Omit<WebhookDeps, 'cipher'> {
  return (webhooks ??= { db: table(), now: () => new Date(), policy: { allowLocalUrls: config().webhooks.allowLocalUrls } });
}

/** The deliveries (list, retry, test) and the fan-out consumer: the table and the clock. */
export function deliveryDeps(): DeliveryDeps {
  return (deliveries ??= { db: table(), now: () => new Date() });
}
