import { createHash } from 'node:crypto';
import { EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '../schemas/event-catalog';
import {
  DELIVERY_ERRORS,
  DELIVERY_STATUSES,
  DISABLED_REASONS,
  WEBHOOK_EVENT_FILTERS,
  type DeliveryError,
  type DeliveryStatus,
  type DisabledReason,
  type WebhookEventFilter,
} from '../schemas/webhooks';
import { changeStamp } from './change-stamp';
import { itemFields, StoredItemError } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';

/*
 * Webhook endpoints and deliveries as items: types, keys, item builders and mappers, with no DynamoDB client
 * (the event processor maps them and bundles none).
 */

/** A signing secret as stored: its ciphertext under the stack's key (shared/crypto/webhook-secret-cipher.ts), never the secret. */
export interface StoredSecret {
  ciphertext: Uint8Array;
  created_at: string;
  /** Set on the previous secret by a rotation: until then it still signs beside the current one. */
  expires_at?: string;
}

export interface WebhookRecord {
  id: string;
  org_id: string;
  url: string;
  description: string;
  events: WebhookEventFilter[];
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  created_at: string;
  updated_at: string;
  /** The current secret first, then the previous one while it still signs. */
  secrets: StoredSecret[];
  /** When the first of an unbroken run of failed attempts happened; null after a success. */
  failing_since: string | null;
}

export interface DeliveryRecord {
  id: string;
  org_id: string;
  webhook_id: string;
  event_id: string;
  event_type: (typeof EVENT_TYPES)[number] | typeof WEBHOOK_TEST_EVENT_TYPE;
  /** The exact body every attempt sends: the event envelope as JSON. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  response_status: number | null;
  response_ms: number | null;
  error: DeliveryError | null;
  /**
   * Which request to attempt it is in force: new when the delivery is created and on every
   * retry asked for. Its change is what the stream turns into a `webhook.delivery_due`
   * event; a queued message naming an older one is stale.
   */
  dispatch_id: string;
  /** While an attempt is under way: until when it holds the delivery, and its token. */
  lease?: { token: string; until: string };
}

/** The sort keys of webhook items, for the stream's classification (shared/storage/stream-items.ts). */
export const WEBHOOK_SORT_KEY = /^WEBHOOK#[^#]+$/;
export const DELIVERY_PARTITION = /^ORG#([^#]+)#WEBHOOK#([^#]+)$/;
export const DELIVERY_SORT_KEY = /^DELIVERY#[^#]+$/;

/** What a delivery id looks like: `dlv_`, 12 hex digits of its creation time in ms, 20 of a hash. */
export const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;

/**
 * The id of an event's delivery to an endpoint: the same for the same pair, so an event
 * handed twice to the fan-out makes one delivery; it begins with the time, so ids sort by
 * creation and a page of deliveries reads newest first.
 */
export function deliveryIdFor(createdAt: Date, webhookId: string, eventId: string): string {
  const time = createdAt.getTime().toString(16).padStart(12, '0');
  return `dlv_${time}${createHash('sha256').update(`${webhookId}#${eventId}`).digest('hex').slice(0, 20)}`;
}

/** The item of an endpoint (every write of it is stamped: its events name who). */
export function webhookItem(webhook: WebhookRecord) {
  const { failing_since: failingSince, ...fields } = webhook;
  return {
    ...keys.webhook(webhook.org_id, webhook.id),
    ...fields,
    secrets: webhook.secrets.map((secret) => ({ ...secret })),
    // Absent rather than NULL while the endpoint is not failing: the dispatcher's `if_not_exists` counts a NULL as set.
    ...(failingSince ? { failing_since: failingSince } : {}),
    ...changeStamp(),
  };
}

/** Maps a stored endpoint (StoredItemError when a field it needs is missing or malformed). */
export function webhookFromItem(item: Record<string, unknown>): WebhookRecord {
  const fields = itemFields(item, 'webhook');
  const events = fields.stringList('events');
  if (!events.every((event): event is WebhookEventFilter => (WEBHOOK_EVENT_FILTERS as readonly string[]).includes(event))) {
    throw new StoredItemError(`Stored webhook ${String(item.PK)}|${String(item.SK)}: events holds an unknown event type`);
  }
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    url: fields.string('url'),
    description: fields.string('description'),
    events,
    enabled: fields.boolean('enabled'),
    disabled_reason:
      item.disabled_reason === null || item.disabled_reason === undefined ? null : fields.oneOf('disabled_reason', DISABLED_REASONS),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    secrets: fields.list('secrets').map((raw) => {
      const secret = itemFields({ ...(raw as Record<string, unknown>), PK: item.PK, SK: item.SK }, 'webhook secret');
      const expiresAt = secret.optionalString('expires_at');
      return {
        ciphertext: secret.bytes('ciphertext'),
        created_at: secret.string('created_at'),
        ...(expiresAt ? { expires_at: expiresAt } : {}),
      };
    }),
    failing_since: fields.nullableString('failing_since'),
  };
}

/** The item of a delivery, in the status index of its status, expiring with the delivery records' retention. */
export function deliveryItem(delivery: DeliveryRecord, expiresAtEpoch: number) {
  const { lease, ...rest } = delivery;
  return {
    ...keys.delivery(delivery.org_id, delivery.webhook_id, delivery.id),
    ...keys.deliveriesByStatus(delivery.org_id, delivery.webhook_id, delivery.status, delivery.id),
    ...rest,
    ...(lease ? { lease } : {}),
    [TABLE.ttlAttribute]: expiresAtEpoch,
  };
}

/** Maps a stored delivery. */
export function deliveryFromItem(item: Record<string, unknown>): DeliveryRecord {
  const fields = itemFields(item, 'webhook delivery');
  const nullableNumber = (name: string) => (item[name] === null || item[name] === undefined ? null : fields.number(name));
  const lease =
    item.lease === undefined || item.lease === null
      ? undefined
      : itemFields({ ...fields.map('lease'), PK: item.PK, SK: item.SK }, 'delivery lease');
  return {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    webhook_id: fields.string('webhook_id'),
    event_id: fields.string('event_id'),
    event_type: fields.oneOf('event_type', [...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]),
    payload: fields.string('payload'),
    status: fields.oneOf('status', DELIVERY_STATUSES),
    attempts: fields.number('attempts'),
    created_at: fields.string('created_at'),
    last_attempt_at: fields.nullableString('last_attempt_at'),
    next_attempt_at: fields.nullableString('next_attempt_at'),
    response_status: nullableNumber('response_status'),
    response_ms: nullableNumber('response_ms'),
    error: item.error === null || item.error === undefined ? null : fields.oneOf('error', DELIVERY_ERRORS),
    dispatch_id: fields.string('dispatch_id'),
    ...(lease ? { lease: { token: lease.string('token'), until: lease.string('until') } } : {}),
  };
}
