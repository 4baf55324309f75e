import { createHash, randomBytes } from 'node:crypto';
import type { WebhookSecretCipher } from '../../crypto/webhook-secret-cipher';
import type { DomainEvent } from '../../schemas/event-catalog';
import { logger } from '../../observability/logger';
import type { CountMetric } from '../../observability/metric-names';
import type { TableContext } from '../../storage/dynamo';
import { claimDelivery, recordAttempt, type AttemptRecord } from '../../storage/webhook-deliveries';
import type { WebhookRecord } from '../../storage/webhook-items';
import { clearWebhookFailing, disableFailingWebhook, getWebhook, markWebhookFailing } from '../../storage/webhooks';
import type { SendOutcome, WebhookRequest } from '../../webhooks/http-sender';
import { webhookHeaders } from '../../webhooks/signature';
import { DISABLE_AFTER_FAILING_MS, MAX_DELIVERY_ATTEMPTS, nextRetryDelaySeconds } from './retry-schedule';

export interface DispatchDeps {
  db: TableContext;
  now: () => Date;
  /** The endpoint's signing secrets in plain text (decrypted, cached by the caller). */
  secretsOf: (webhook: WebhookRecord, now: Date) => Promise<string[]>;
  /** One HTTP attempt (shared/webhooks/http-sender.ts, with the endpoint policy). */
  send: (request: WebhookRequest) => Promise<SendOutcome>;
  /** In [0, 1): the retry delays' jitter. */
  random?: () => number;
  /** Counts the failed attempts and the deliveries given up on (WebhookAttemptsFailed, WebhookDeliveriesFailed). */
  countMetric: CountMetric;
}

/** Which delivery a `webhook.delivery_due` event asks to attempt, under which dispatch. */
export interface DispatchRef {
  orgId: string;
  webhookId: string;
  deliveryId: string;
  dispatchId: string;
}

/** What the queue should do with the message: forget it, or bring it back in so many seconds. */
export type DispatchOutcome = { kind: 'done' } | { kind: 'retry'; afterSeconds: number };

/** How long one attempt holds its delivery: longer than an attempt can take (the function's 30 s timeout). */
const LEASE_MS = 60_000;

/** The delivery a `webhook.delivery_due` event names. */
export function dispatchRefOf(event: DomainEvent): DispatchRef {
  const { webhook_id: webhookId, dispatch_id: dispatchId } = event.data;
  if (typeof webhookId !== 'string' || typeof dispatchId !== 'string') throw new Error(`Event ${event.id} names no webhook delivery`);
  return { orgId: event.org_id, webhookId, deliveryId: event.resource.id, dispatchId };
}

/**
 * One attempt of one delivery: claim it (it must still be pending under this dispatch, and
 * no other attempt may hold it), sign the stored payload with the endpoint's secrets, POST
 * it, record the outcome. A failed attempt with retries left asks the queue to bring the
 * message back when the next is due; an endpoint whose attempts have all failed for 3 days
 * is disabled. A delivery whose endpoint is disabled is settled as failed without a request;
 * one whose endpoint is gone is left to expire.
 */
export async function dispatchWebhookDelivery(deps: DispatchDeps, ref: DispatchRef): Promise<DispatchOutcome> {
  const started = deps.now();
  const lease = { token: randomBytes(8).toString('hex'), until: new Date(started.getTime() + LEASE_MS).toISOString() };
  const claim = await claimDelivery(deps.db, ref, lease, started.toISOString());
  if ('refused' in claim) {
    if (claim.refused !== 'leased') return { kind: 'done' };
    // Another copy of the message is attempting it: come back once its lease has run out.
    const leftMs = claim.leasedUntil ? Date.parse(claim.leasedUntil) - started.getTime() : LEASE_MS;
    return { kind: 'retry', afterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
  }
  const { delivery } = claim;
  const webhook = await getWebhook(deps.db, ref.orgId, ref.webhookId);
  if (!webhook) return { kind: 'done' };
  if (!webhook.enabled) {
    if (
      await recordAttempt(
        deps.db,
        delivery,
        lease.token,
        { ...unsent(started), status: 'failed', error: 'endpoint_disabled' },
        { counted: false },
      )
    ) {
      deps.countMetric('WebhookDeliveriesFailed');
    }
    return { kind: 'done' };
  }

  const timestampSeconds = Math.floor(started.getTime() / 1000);
  const headers = webhookHeaders({
    messageId: delivery.event_id,
    timestampSeconds,
    body: delivery.payload,
    secrets: await deps.secretsOf(webhook, started),
  });
  const outcome = await deps.send({ url: webhook.url, headers, body: delivery.payload });
  const finished = deps.now();
  const attempts = delivery.attempts + 1;
  const delay = outcome.ok || attempts >= MAX_DELIVERY_ATTEMPTS ? null : nextRetryDelaySeconds(attempts, deps.random);
  const attempt: AttemptRecord = {
    status: outcome.ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
    attemptedAt: started.toISOString(),
    nextAttemptAt: delay === null ? null : new Date(finished.getTime() + delay * 1000).toISOString(),
    responseStatus: outcome.status,
    responseMs: outcome.ms,
    error: outcome.error,
  };
  logger.info('webhook attempt', {
    delivery_id: delivery.id,
    webhook_id: webhook.id,
    attempt: attempts,
    status: attempt.status,
    response_status: outcome.status,
    error: outcome.error,
    ms: outcome.ms,
  });
  // An attempt that outlived its lease lost the delivery to another: that one records and schedules.
  if (!(await recordAttempt(deps.db, delivery, lease.token, attempt))) return { kind: 'done' };
  // Counted once recorded: an attempt that lost its delivery to another is that one's to count.
  if (attempt.status === 'pending') deps.countMetric('WebhookAttemptsFailed');
  if (attempt.status === 'failed') deps.countMetric('WebhookDeliveriesFailed');
  await noteEndpointHealth(deps, webhook, outcome.ok, finished);
  return delay === null ? { kind: 'done' } : { kind: 'retry', afterSeconds: delay };
}

function unsent(now: Date): Omit<AttemptRecord, 'status' | 'error'> {
  return { attemptedAt: now.toISOString(), nextAttemptAt: null, responseStatus: null, responseMs: null };
}

/** A success clears the endpoint's run of failures; a failure extends it, and disables the endpoint once it has lasted 3 days. */
async function noteEndpointHealth(deps: DispatchDeps, webhook: WebhookRecord, ok: boolean, now: Date): Promise<void> {
  if (ok) {
    if (webhook.failing_since) await clearWebhookFailing(deps.db, webhook.org_id, webhook.id);
    return;
  }
  const failingSince = await markWebhookFailing(deps.db, webhook.org_id, webhook.id, now.toISOString());
  const cutoff = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString();
  if (
    failingSince &&
    failingSince <= cutoff &&
    (await disableFailingWebhook(deps.db, webhook.org_id, webhook.id, cutoff, now.toISOString()))
  ) {
    logger.warn('webhook endpoint disabled', { webhook_id: webhook.id, org_id: webhook.org_id, failing_since: failingSince });
  }
}

/**
 * The endpoint's signing secrets in plain text, the current one first, without those whose
 * overlap has ended; decrypted once per ciphertext and kept for a few minutes, so a warm
 * dispatcher does not call KMS for every attempt.
 */
export function cachedSecrets(cipher: WebhookSecretCipher, keepMs = 5 * 60_000): DispatchDeps['secretsOf'] {
  const cache = new Map<string, { secret: string; until: number }>();
  return async (webhook, now) => {
    const live = webhook.secrets.filter((secret) => !secret.expires_at || secret.expires_at > now.toISOString());
    return Promise.all(
      live.map(async ({ ciphertext }) => {
        const key = createHash('sha256').update(ciphertext).digest('hex');
        const hit = cache.get(key);
        if (hit && hit.until > now.getTime()) return hit.secret;
        const secret = await cipher.decrypt(ciphertext, { orgId: webhook.org_id, webhookId: webhook.id });
        cache.set(key, { secret, until: now.getTime() + keepMs });
        return secret;
      }),
    );
  };
}
