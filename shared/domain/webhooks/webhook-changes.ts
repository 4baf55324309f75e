import type { WebhookSecretCipher } from '../../crypto/webhook-secret-cipher';
import { ConflictError, ValidationError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import { retryOnWriteConflict } from '../../storage/write-retries';
import {
  checkEndpointUrl,
  EndpointAddressError,
  resolveEndpointAddresses,
  type AddressLookup,
  type EndpointPolicy,
} from '../../webhooks/endpoint-address';

export interface WebhookDeps {
  db: TableContext;
  now: () => Date;
  cipher: WebhookSecretCipher;
  /** Where endpoints may point (loopback only in the local runtime). */
  policy: EndpointPolicy;
  /** DNS resolution (tests inject one). */
  lookup?: AddressLookup;
}

/** How long a rotated-out secret still signs beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/**
 * 400 WEBHOOK_URL_NOT_ALLOWED unless the URL may receive deliveries: https, no credentials,
 * and a host that resolves to public addresses only (the dispatcher checks again at each
 * delivery, as DNS answers can change).
 */
export async function checkUrl(deps: Pick<WebhookDeps, 'policy' | 'lookup'>, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const parsed = checkEndpointUrl(url, deps.policy);
    // A resolver that never answers must not hold the request until the function's timeout.
    const tooSlow = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new EndpointAddressError(
              'unresolvable',
              `The host ${parsed.hostname} did not resolve within ${DNS_TIMEOUT_MS / 1000} seconds.`,
            ),
          ),
        DNS_TIMEOUT_MS,
      );
    });
    await Promise.race([resolveEndpointAddresses(parsed.hostname, deps.policy, deps.lookup), tooSlow]);
  } catch (error) {
    if (error instanceof EndpointAddressError)
      throw ValidationError.field('url', 'invalid_value', `is not allowed: ${error.message.replace(/\.$/, '')}`, 'WEBHOOK_URL_NOT_ALLOWED');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** How long saving an endpoint waits for its host to resolve. */
const DNS_TIMEOUT_MS = 3_000;

/**
 * Creates and deletes move the organization's count item in a transaction: two at once in
 * one organization cancel each other (TransactionConflict, no condition failed), which is
 * simply tried again; a condition that failed is the caller's answer (409, 404).
 */
export function countedWrite(write: () => Promise<void>): Promise<void> {
  return retryOnWriteConflict(write, {
    attempts: 10,
    exhausted: () =>
      new ConflictError(
        'CONCURRENT_UPDATE',
        "The organization's webhook endpoints are being changed by other requests right now; try again.",
      ),
  });
}
