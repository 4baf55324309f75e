import { config } from '../config';
import { webhookSecretCipher } from '../crypto/configured-cipher';
import { cachedSecrets, type DispatchDeps } from '../domain/webhooks/dispatch-webhook-delivery';
import type { WebhookDeps } from '../domain/webhooks/webhook-changes';
import { countMetric } from '../observability/metrics';
import { table } from '../storage/dynamo';
import { postWebhook } from '../webhooks/http-sender';
import { webhookDeps } from './webhook-deps';

/** The webhooks area's functions that make or read signing secrets: built from config on first use and kept for the warm function. */

let dispatch: DispatchDeps | undefined;

/** Creating an endpoint and rotating its secret: the endpoints' dependencies with the signing secrets' cipher. */
export function webhookSecretDeps(): WebhookDeps {
  return { ...webhookDeps(), cipher: webhookSecretCipher() };
}

/** The dispatcher's: the decrypted secrets' cache and the HTTP sender live as long as the warm function. */
export function dispatchDeps(): DispatchDeps {
  const policy = { allowLocalUrls: config().webhooks.allowLocalUrls };
  return (dispatch ??= {
    db: table(),
    now: () => new Date(),
    secretsOf: cachedSecrets(webhookSecretCipher()),
    send: (request) => postWebhook(request, { policy }),
    countMetric,
  });
}
