import { config } from '../../config';
import { webhookSecretCipher } from '../../crypto/configured-cipher';
import { table } from '../../storage/dynamo';
import type { WebhookDeps } from './webhooks';

/** The webhook route functions' dependencies, from config; the secret cipher is built only by the functions that use it. */
export function webhookDeps(): WebhookDeps {
  return {
    db: table(),
    now: () => new Date(),
    policy: { allowLocalUrls: config().webhooks.allowLocalUrls },
    get cipher() {
      return webhookSecretCipher();
    },
  };
}
