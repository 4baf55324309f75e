import { createHmac, randomBytes } from 'node:crypto';

/** The prefix every signing secret carries, as the Standard Webhooks scheme writes them. */
export const SIGNING_SECRET_PREFIX = 'whsec_';

/** How many random bytes a signing secret holds (HMAC-SHA256 keys gain nothing beyond 32). */
export const SIGNING_SECRET_BYTES = 32;

/** The User-Agent of every delivery, so receivers can tell our requests apart in their logs and firewalls. */
export const WEBHOOK_USER_AGENT = 'VoiceOrgAPI-Webhooks/1';

/** A fresh signing secret: `whsec_` followed by the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBytes(SIGNING_SECRET_BYTES).toString('base64');
}

function signingKey(secret: string): Buffer {
  // The message names no secret: it may end up in a log, the secret must not.
  if (!secret.startsWith(SIGNING_SECRET_PREFIX)) throw new Error(`A webhook signing secret must start with ${SIGNING_SECRET_PREFIX}`);
  const key = Buffer.from(secret.slice(SIGNING_SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('A webhook signing secret must hold a base64 key after its prefix');
  return key;
}

/**
 * The `webhook-signature` header of the Standard Webhooks scheme: one `v1,<base64 HMAC-SHA256>`
 * of `"<messageId>.<timestampSeconds>.<body>"` per secret, in the order given, separated by
 * spaces. Two secrets are given during a rotation's overlap, so receivers holding either one
 * verify the delivery.
 *
 * @param secrets - `whsec_` secrets; at least one.
 * @param messageId - the `webhook-id` header (the event id, constant across retries).
 * @param timestampSeconds - the `webhook-timestamp` header, whole seconds since the epoch.
 * @param body - the exact request body, as sent.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('At least one signing secret is required');
  if (!Number.isSafeInteger(timestampSeconds)) throw new Error('The webhook timestamp must be whole seconds');
  const signedContent = `${messageId}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(signedContent, 'utf8').digest('base64')}`).join(' ');
}

/** What one delivery attempt signs. */
export interface WebhookMessage {
  /** The event id: receivers deduplicate on it, so it stays the same across retries. */
  messageId: string;
  /** When this attempt is sent, whole seconds since the epoch (receivers refuse stale ones). */
  timestampSeconds: number;
  /** The JSON body, exactly as it will be sent. */
  body: string;
  /** The endpoint's current secret first, then the previous one while a rotation overlaps. */
  secrets: readonly string[];
}

/** Every header of a delivery request: content type, the three Standard Webhooks headers, and our User-Agent. */
export function webhookHeaders({ messageId, timestampSeconds, body, secrets }: WebhookMessage): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(secrets, messageId, timestampSeconds, body),
    'user-agent': WEBHOOK_USER_AGENT,
  };
}
