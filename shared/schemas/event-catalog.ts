import * as v from 'valibot';
import { admitsAtMost, Id, Timestamp } from './common';

/**
 * The domain events of the API: one per committed change that integrators and the audit
 * log care about. The event processor derives them from the table's stream
 * (shared/events/change-events.ts), so an event exists exactly when its change committed.
 * docs/events.md documents each type; this file is the one list.
 */
export const EVENT_TYPES = [
  'recording.created',
  'recording.uploaded',
  'recording.upload_failed',
  'recording.updated',
  'recording.trashed',
  'recording.restored',
  'recording.deleted',
  'recording.retention_expired',
  'recording.legal_hold_placed',
  'recording.legal_hold_released',
  'recording.speakers_updated',
  'recording.transcription_queued',
  'recording.transcription_completed',
  'recording.transcription_failed',
  'recording.summary_queued',
  'recording.summary_completed',
  'recording.summary_failed',
  'action_item.created',
  'recording.translation_queued',
  'recording.translation_completed',
  'recording.translation_failed',
  'member.joined',
  'member.updated',
  'member.removed',
  'member.legal_hold_placed',
  'member.legal_hold_released',
  'organization.retention_updated',
  'organization.redaction_updated',
  'organization.vocabulary_updated',
  'member_settings.updated',
  'invite.created',
  'invite.resent',
  'invite.accepted',
  'invite.revoked',
  'invite.expired',
  'invite.email_sent',
  'invite.email_failed',
  'template.created',
  'template.updated',
  'template.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.secret_rotated',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'user.export_requested',
  'user.export_completed',
  'user.erased',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events the service sends itself, never shown to organizations (no audit entry, no
 * webhook): a recording's time in the trash ran out; a webhook delivery is to be attempted
 * (it was created, or someone asked to retry it); what search holds of a recording changed.
 */
export const INTERNAL_EVENT_TYPES = [
  'recording.retention_due',
  'webhook.delivery_due',
  'recording.index_due',
  'user.erasure_requested',
] as const;
export type InternalEventType = (typeof INTERNAL_EVENT_TYPES)[number];

/** The EventBridge `source` of every event this service puts on its bus. */
export const EVENT_SOURCE = 'voice-org-api';

/** Who made a change: a member (ID token or personal key, by user id) or an organization API key (by key id); null for the service itself. */
export const ACTOR_KINDS = ['user', 'api_key'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];
export const Actor = v.object({ kind: v.picklist(ACTOR_KINDS), id: Id });
export type Actor = v.InferOutput<typeof Actor>;

export const RESOURCE_TYPES = [
  'recording',
  'member',
  'member_settings',
  'invite',
  'template',
  'webhook',
  'webhook_delivery',
  'api_key',
  'organization',
  'user',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Event data: ids, states and the names of what changed; never profile or preference content, tokens, key material or hashes. */
export const EventData = v.record(v.string(), v.unknown());

const NullableString = v.nullable(v.string());

/**
 * The data of the summary events (docs/events.md): ids, statuses, the model and error code,
 * never summary or transcript text. The stream rules (shared/events/summary-events.ts) build
 * them and a unit test holds each derived event to its schema.
 */
export const SUMMARY_EVENT_DATA = {
  'recording.summary_queued': v.strictObject({ recorded_by: Id, state: v.string(), summary_id: Id, template_id: NullableString }),
  'recording.summary_completed': v.strictObject({
    recorded_by: Id,
    state: v.string(),
    summary_id: Id,
    template_id: NullableString,
    model: v.string(),
  }),
  'recording.summary_failed': v.strictObject({
    recorded_by: Id,
    state: v.string(),
    summary_id: Id,
    template_id: NullableString,
    model: NullableString,
    error_code: v.string(),
  }),
  'action_item.created': v.strictObject({
    summary_id: Id,
    action_item_id: v.string(),
    assignee_user_id: NullableString,
    due_date: NullableString,
  }),
} as const;

/**
 * The data of a member's export events (docs/events.md, docs/governance.md): ids, the option
 * and the ZIP's size, never any of its content. The stream rules (shared/events/export-events.ts)
 * build them and a unit test holds each derived event to its schema.
 */
/**
 * The data of the erasure events (docs/governance.md, "Erasure"): ids and counts, never the
 * erased person's email or name. `user.erasure_requested` is the service's own cue to run the
 * job; `user.erased` is the one audit entry and webhook an erasure leaves.
 */
export const ERASURE_EVENT_DATA = {
  'user.erasure_requested': v.strictObject({ erasure_id: Id, user_id: Id }),
  'user.erased': v.strictObject({ erasure_id: Id, user_id: Id, counts: v.record(v.string(), v.number()) }),
} as const;

export const EXPORT_EVENT_DATA = {
  'user.export_requested': v.strictObject({ export_id: Id, include_media: v.boolean() }),
  'user.export_completed': v.strictObject({ export_id: Id, size_bytes: v.number() }),
} as const;

const EVENT_ID_HEX_DIGITS = 32;
/** An event's id: `evt_` and 32 hex digits (shared/events/change-events.ts derives it). */
export const EventId = v.pipe(
  v.string(),
  v.regex(new RegExp(`^evt_[0-9a-f]{${EVENT_ID_HEX_DIGITS}}$`)),
  admitsAtMost('evt_'.length + EVENT_ID_HEX_DIGITS),
);

/** The envelope of every event (EventBridge `detail`): stable `id` per committed change, so a redelivered change is recognisable. */
export const DomainEventSchema = v.object({
  id: EventId,
  type: v.picklist([...EVENT_TYPES, ...INTERNAL_EVENT_TYPES]),
  occurred_at: Timestamp,
  org_id: Id,
  actor: v.nullable(Actor),
  correlation_id: v.nullable(v.string()),
  resource: v.object({ type: v.picklist(RESOURCE_TYPES), id: Id }),
  data: EventData,
});

export type DomainEvent = v.InferOutput<typeof DomainEventSchema>;

/**
 * The type of the event `POST …/webhooks/{webhookId}/test` sends to that one endpoint: never
 * on the bus, never in the audit log, and not a type an endpoint subscribes to.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** Whether an event is one organizations see (audit log, webhooks). */
export function isPublicEvent(event: Pick<DomainEvent, 'type'>): event is DomainEvent & { type: EventType } {
  return (EVENT_TYPES as readonly string[]).includes(event.type);
}

/** The envelope as organizations and integrators see it (the API document's DomainEvent): public types only, each field described. */
export const PublicDomainEventSchema = v.pipe(
  v.object({
    id: v.pipe(
      DomainEventSchema.entries.id,
      v.description(
        "The event's id (`evt_` and 32 hex digits), one per committed change: the same on every redelivery, so deduplicate on it.",
      ),
    ),
    type: v.pipe(v.picklist(EVENT_TYPES), v.description('What happened (docs/events.md lists each type and its data).')),
    occurred_at: v.pipe(Timestamp, v.description('When the change was committed (ISO 8601 UTC, with milliseconds).')),
    org_id: v.pipe(Id, v.description('The organization it happened in.')),
    actor: v.pipe(
      v.nullable(
        v.object({
          kind: v.pipe(
            v.picklist(ACTOR_KINDS),
            v.description('`user`: a member (by ID token or personal key); `api_key`: an organization API key.'),
          ),
          id: v.pipe(Id, v.description('The user id, or the key id.')),
        }),
      ),
      v.description("Who made the change; null for the service itself (such as the trash's retention)."),
    ),
    correlation_id: v.pipe(
      v.nullable(v.string()),
      v.description('The `x-correlation-id` of the request that made the change; null when no request did.'),
    ),
    resource: v.pipe(
      v.object({
        type: v.pipe(v.picklist(RESOURCE_TYPES), v.description('The kind of resource.')),
        id: v.pipe(Id, v.description("The resource's id (a user id for a member and their settings).")),
      }),
      v.description('What changed.'),
    ),
    data: v.pipe(
      EventData,
      v.description(
        "The type's own fields: ids, states and the names of what changed; never profile or preference content, tokens or key material.",
      ),
    ),
  }),
  v.description(
    'A domain event: the body of every webhook delivery (signed by the Standard Webhooks scheme) and the source of each audit log entry.',
  ),
);
