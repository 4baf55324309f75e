import { config } from '../../config';
import { table } from '../../storage/dynamo';
import type { WebhookDeps } from './webhooks';

/**
 * The webhook route functions' dependencies, from config. The signing-secret cipher is the
 * caller's to add (create and rotate only), so the other functions bundle no KMS client.
 */
export function webhookDeps(): Omit<WebhookDeps, 'cipher'> {
  return { db: table(), now: () => new Date(), policy: { allowLocalUrls: config().webhooks.allowLocalUrls } };
}
