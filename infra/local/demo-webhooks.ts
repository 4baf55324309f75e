import { createHash } from 'node:crypto';
import type { WebhookSecretCipher } from '../../shared/crypto/webhook-secret-cipher';
import { DELIVERY_RETENTION_SECONDS, newDelivery, type DeliverableEvent } from '../../shared/domain/webhooks/deliveries';
import { WEBHOOK_LIMITS } from '../../shared/schemas/webhooks';
import type { TableContext } from '../../shared/storage/dynamo';
import { insertDeliveryOnce } from '../../shared/storage/webhook-deliveries';
import { deliveryIdFor, type WebhookRecord } from '../../shared/storage/webhook-items';
import { insertWebhook } from '../../shared/storage/webhooks';
import { newSigningSecret } from '../../shared/webhooks/signature';

/**
 * The demo's webhook endpoints, made for each data directory like its keys: a signing secret
 * is a secret, sealed by the data directory's key, so no fixture file can hold one. They point
 * at port 9 of this machine (discard), where nothing listens: deliveries to them fail until
 * their URL is changed to a receiver (Update webhook, or see `npx voice-org webhooks listen`).
 */
/** When the demo's endpoints were set up and its failed delivery happened: in the demo's past, like its recordings. */
const SET_UP_AT = '2026-10-01T09:00:00.000Z';
const VOICE_MEMO_UPLOADED_AT = '2026-10-28T15:02:00.000Z';
const FAILED_AFTER_RETRIES_AT = '2026-10-29T21:02:00.000Z';

export const DEMO_WEBHOOKS = {
  /** "CRM sync": read, changed, tested; its failed delivery is retried. */
  crm: {
    id: 'wh_demo_crm',
    url: 'http://127.0.0.1:9/crm-sync',
    description: 'CRM sync',
    events: ['recording.uploaded', 'recording.deleted'],
  },
  /** "Old test endpoint": deleted. */
  old: { id: 'wh_demo_old', url: 'http://127.0.0.1:9/old-test', description: 'Old test endpoint', events: ['invite.accepted'] },
} as const satisfies Record<string, Pick<WebhookRecord, 'id' | 'url' | 'description' | 'events'>>;

/** The `recording.uploaded` event of Mia's voice memo (rec_demo_voice_memo of fixtures/demo.json), which the CRM endpoint did not take. */
const VOICE_MEMO_EVENT_ID = `evt_${createHash('sha256').update('demo:rec_demo_voice_memo:uploaded').digest('hex').slice(0, 32)}`;
const voiceMemoUploaded = (orgId: string): DeliverableEvent => ({
  id: VOICE_MEMO_EVENT_ID,
  type: 'recording.uploaded',
  occurred_at: VOICE_MEMO_UPLOADED_AT,
  org_id: orgId,
  actor: null,
  correlation_id: null,
  resource: { type: 'recording', id: 'rec_demo_voice_memo' },
  data: { recorded_by: 'usr_demo_member', state: 'uploaded', size_bytes: 1_520_000 },
});

/** Its delivery to the CRM endpoint: failed after every retry (the receiver was down), the one to retry. */
const failedDelivery = (orgId: string) => ({
  ...newDelivery(voiceMemoUploaded(orgId), DEMO_WEBHOOKS.crm.id, new Date(VOICE_MEMO_UPLOADED_AT)),
  status: 'failed' as const,
  attempts: 8,
  last_attempt_at: FAILED_AFTER_RETRIES_AT,
  next_attempt_at: null,
  error: 'connection_refused' as const,
});

/** The id of the demo's failed delivery (stable: it comes from the event's time and id and the endpoint, as newDelivery makes it). */
export const DEMO_DELIVERY_ID = deliveryIdFor(new Date(VOICE_MEMO_UPLOADED_AT), DEMO_WEBHOOKS.crm.id, VOICE_MEMO_EVENT_ID);

/** Stores the demo's endpoints, each with a new signing secret sealed by `cipher`, and the CRM endpoint's failed delivery. */
export async function seedDemoWebhooks(deps: { db: TableContext; cipher: WebhookSecretCipher }, orgId: string, now: Date): Promise<void> {
  for (const endpoint of Object.values(DEMO_WEBHOOKS)) {
    const webhook: WebhookRecord = {
      ...endpoint,
      events: [...endpoint.events],
      org_id: orgId,
      enabled: true,
      disabled_reason: null,
      created_at: SET_UP_AT,
      updated_at: SET_UP_AT,
      secrets: [{ ciphertext: await deps.cipher.encrypt(newSigningSecret(), { orgId, webhookId: endpoint.id }), created_at: SET_UP_AT }],
      failing_since: null,
    };
    await insertWebhook(deps.db, webhook, WEBHOOK_LIMITS.endpointsPerOrganization);
  }
  // Kept for the retention period from when the demo is loaded, so the local TTL emulator does not remove it at once.
  await insertDeliveryOnce(deps.db, failedDelivery(orgId), Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS);
}
