import { randomBytes } from 'node:crypto';
import type { WebhookSecretCipher } from '../../crypto/webhook-secret-cipher';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../schemas/event-catalog';
import { ConflictError, ValidationError } from '../../core/errors';
import { newId } from '../../ids';
import { WEBHOOK_LIMITS, type CreateWebhookBody, type UpdateWebhookBody } from '../../schemas/webhooks';
import { currentChangeContext } from '../../storage/change-stamp';
import type { TableContext } from '../../storage/dynamo';
import { WriteConflict } from '../../storage/transactions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { insertDeliveryOnce } from '../../storage/webhook-deliveries';
import type { WebhookRecord } from '../../storage/webhook-items';
import { insertWebhook, listWebhooks, removeWebhook, updateWebhookFields, type WebhookChanges } from '../../storage/webhooks';
import {
  checkEndpointUrl,
  EndpointAddressError,
  resolveEndpointAddresses,
  type AddressLookup,
  type EndpointPolicy,
} from '../../webhooks/endpoint-address';
import { newSigningSecret } from '../../webhooks/signature';
import { newDelivery, DELIVERY_RETENTION_SECONDS } from './deliveries';
import { existingWebhook, webhookNotFound } from './webhook-lookup';
import { deliveryView, webhookView } from './webhook-views';

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
async function checkUrl(deps: Pick<WebhookDeps, 'policy' | 'lookup'>, url: string): Promise<void> {
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

/** The organization's endpoints, oldest first. */
export async function listOrganizationWebhooks(deps: Pick<WebhookDeps, 'db'>, orgId: string) {
  const webhooks = await listWebhooks(deps.db, orgId);
  return { webhooks: webhooks.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)).map(webhookView) };
}

export async function readWebhook(deps: Pick<WebhookDeps, 'db'>, orgId: string, webhookId: string) {
  return webhookView(await existingWebhook(deps.db, orgId, webhookId));
}

/**
 * Subscribes an endpoint: its signing secret is made here, stored encrypted, and returned
 * this once. 409 WEBHOOK_LIMIT_REACHED when the organization already has the maximum.
 */
export async function createWebhook(deps: WebhookDeps, orgId: string, body: CreateWebhookBody) {
  await checkUrl(deps, body.url);
  const now = deps.now().toISOString();
  const id = newId('wh');
  const secret = newSigningSecret();
  const webhook: WebhookRecord = {
    id,
    org_id: orgId,
    url: body.url,
    description: body.description,
    events: body.events,
    enabled: body.enabled,
    disabled_reason: body.enabled ? null : 'manual',
    created_at: now,
    updated_at: now,
    secrets: [{ ciphertext: await deps.cipher.encrypt(secret, { orgId, webhookId: id }), created_at: now }],
    failing_since: null,
  };
  await countedWrite(async () => {
    try {
      await insertWebhook(deps.db, webhook, WEBHOOK_LIMITS.endpointsPerOrganization);
    } catch (error) {
      if (error instanceof WriteConflict && error.failedAt('count')) {
        throw new ConflictError(
          'WEBHOOK_LIMIT_REACHED',
          `An organization can have at most ${WEBHOOK_LIMITS.endpointsPerOrganization} webhook endpoints; delete one first.`,
        );
      }
      throw error;
    }
  });
  return { ...webhookView(webhook), secret };
}

/**
 * Changes the fields given. Disabling records `manual` as the reason; enabling clears the
 * reason and the failures counted toward disabling, whatever disabled it.
 */
export async function updateWebhook(deps: Omit<WebhookDeps, 'cipher'>, orgId: string, webhookId: string, body: UpdateWebhookBody) {
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const current = await existingWebhook(deps.db, orgId, webhookId);
  const changes: WebhookChanges = { url: body.url, description: body.description, events: body.events };
  if (body.enabled === false && current.enabled) Object.assign(changes, { enabled: false, disabled_reason: 'manual' });
  if (body.enabled === true && !current.enabled) Object.assign(changes, { enabled: true, disabled_reason: null, clearFailing: true });
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as WebhookChanges;
  try {
    return webhookView(await updateWebhookFields(deps.db, orgId, webhookId, defined, deps.now().toISOString()));
  } catch (error) {
    if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId); // deleted meanwhile
    throw error;
  }
}

/** Deletes an endpoint: no delivery is made to it any more, pending ones included. */
export async function deleteWebhook(deps: Pick<WebhookDeps, 'db' | 'now'>, orgId: string, webhookId: string): Promise<void> {
  await countedWrite(async () => {
    try {
      await removeWebhook(deps.db, orgId, webhookId, deps.now().toISOString());
    } catch (error) {
      if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId);
      throw error;
    }
  });
}

/**
 * Creates and deletes move the organization's count item in a transaction: two at once in
 * one organization cancel each other (TransactionConflict, no condition failed), which is
 * simply tried again; a condition that failed is the caller's answer (409, 404).
 */
function countedWrite(write: () => Promise<void>): Promise<void> {
  return retryOnWriteConflict(write, {
    attempts: 10,
    exhausted: () =>
      new ConflictError(
        'CONCURRENT_UPDATE',
        "The organization's webhook endpoints are being changed by other requests right now; try again.",
      ),
  });
}

/**
 * Replaces the signing secret and returns the new one, this once. The previous current
 * secret keeps signing beside it for 24 hours (both signatures in every delivery), so
 * receivers can switch without missing one; any older secret stops now.
 */
export async function rotateWebhookSecret(deps: WebhookDeps, orgId: string, webhookId: string) {
  const current = await existingWebhook(deps.db, orgId, webhookId);
  const now = deps.now();
  const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  const secret = newSigningSecret();
  const secrets = [
    { ciphertext: await deps.cipher.encrypt(secret, { orgId, webhookId }), created_at: now.toISOString() },
    { ciphertext: current.secrets[0].ciphertext, created_at: current.secrets[0].created_at, expires_at: previousExpiresAt },
  ];
  try {
    const updated = await updateWebhookFields(deps.db, orgId, webhookId, { secrets }, now.toISOString());
    return { ...webhookView(updated), secret, previous_secret_expires_at: previousExpiresAt };
  } catch (error) {
    if (error instanceof WriteConflict && error.failedAt('webhook')) throw webhookNotFound(webhookId);
    throw error;
  }
}

/**
 * Sends a `webhook.test` event to one endpoint, whatever it subscribes to: a delivery like
 * any other (signed, retried, listed), attempted as soon as the pipeline carries it.
 * 409 WEBHOOK_DISABLED for a disabled endpoint, which receives nothing.
 */
export async function sendTestEvent(deps: Pick<WebhookDeps, 'db' | 'now'>, orgId: string, webhookId: string) {
  const webhook = await existingWebhook(deps.db, orgId, webhookId);
  if (!webhook.enabled) throw new ConflictError('WEBHOOK_DISABLED', `Webhook endpoint ${webhookId} is disabled; enable it first.`);
  const now = deps.now();
  const context = currentChangeContext();
  const event = {
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: WEBHOOK_TEST_EVENT_TYPE,
    occurred_at: now.toISOString(),
    org_id: orgId,
    actor: context?.actor ?? null,
    correlation_id: context?.correlationId ?? null,
    resource: { type: 'webhook', id: webhookId },
    data: {},
  } as const;
  const delivery = newDelivery(event, webhookId, now);
  await insertDeliveryOnce(deps.db, delivery, Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS);
  return deliveryView(delivery);
}
