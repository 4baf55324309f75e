import type { DynamoDBRecord } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { DomainEvent } from '../schemas/event-catalog';
import { itemChangeOf, type ItemChange } from '../storage/stream-items';
import { changedFields, Derived, writerOf } from './derived-events';
import { erasureEvents } from './erasure-events';
import { recordingEvents, summaryItemEvents, tombstoneEvents } from './recording-change-events';
import { memberHoldEvents, organizationEvents } from './governance-events';
import { vocabularyEvents } from './transcript-setting-events';
import { memberExportEvents } from './export-events';
import { searchIndexEvents } from './search-events';

/**
 * The domain events of one stream record: a transactional outbox by construction, since a
 * record exists exactly when its change committed. Items that are not the subject of an
 * event (index rows, counters, guards, parts) give none, nor do changes that touch no field
 * an event is about (a counter moving on a membership). The id of each event is derived
 * from the stream record's id, so a record delivered twice gives the same events.
 */
export function eventsOfRecord(record: DynamoDBRecord): DomainEvent[] {
  const change = itemChangeOf(record);
  if (!change) return [];
  const recordedAt = new Date((record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
  return derive(change, recordedAt).map((derived, index) => ({
    id: eventId(record, index),
    type: derived.type,
    occurred_at: derived.occurredAt,
    org_id: change.orgId,
    actor: derived.stamp?.actor ?? null,
    correlation_id: derived.stamp?.correlation_id ?? null,
    resource: derived.resource,
    data: derived.data,
  }));
}

/** `evt_` and 32 hex digits of the SHA-256 of the stream record's id and the event's place in it. */
function eventId(record: DynamoDBRecord, index: number): string {
  if (!record.eventID) throw new Error('A stream record without an eventID cannot give stable event ids');
  return `evt_${createHash('sha256').update(`${record.eventID}#${index}`).digest('hex').slice(0, 32)}`;
}

function derive(change: ItemChange, recordedAt: string): Derived[] {
  switch (change.kind) {
    case 'recording':
      return [...recordingEvents(change, recordedAt), ...searchIndexEvents(change)];
    case 'summary':
      return [...summaryItemEvents(change), ...searchIndexEvents(change)];
    case 'membership':
      return membershipEvents(change);
    case 'memberSettings':
      return settingsEvents(change);
    case 'invite':
      return inviteEvents(change, recordedAt);
    case 'template':
      return templateEvents(change);
    case 'tombstone':
      return tombstoneEvents(change);
    case 'webhook':
      return webhookEvents(change);
    case 'webhookDelivery':
      return deliveryDueEvents(change);
    case 'apiKey':
      return apiKeyEvents(change);
    case 'erasure':
      return erasureEvents(change);
    case 'organization':
      return organizationEvents(change);
    case 'memberLegalHold':
      return memberHoldEvents(change);
    case 'memberExport':
      return memberExportEvents(change);
    case 'vocabulary':
      return vocabularyEvents(change);
    case 'trashTimer':
      // Only the TTL's removal is due: a restore or a permanent delete removes the timer itself.
      if (!change.removedByTtl) return [];
      return [
        { type: 'recording.retention_due', resource: { type: 'recording', id: change.recordingId }, data: {}, occurredAt: change.dueAt },
      ];
  }
}

function membershipEvents(change: Extract<ItemChange, { kind: 'membership' }>): Derived[] {
  const { before, after } = change;
  const member = (after ?? before)?.value;
  if (!member) return [];
  const wasActive = before?.value.status === 'active';
  const isActive = after?.value.status === 'active';
  const stamp = writerOf(before, after);
  const event = (type: Derived['type'], data: Record<string, unknown>): Derived => ({
    type,
    resource: { type: 'member', id: member.user_id },
    data: { user_id: member.user_id, ...data },
    occurredAt: after?.value.updated_at ?? member.updated_at,
    stamp,
  });
  if (!wasActive && isActive) return [event('member.joined', { role: member.role })];
  if (wasActive && !isActive) return [event('member.removed', { status: after?.value.status ?? 'deleted' })];
  if (!before || !after || !isActive) return [];
  const changes = changedFields(before.value, after.value, ['role', 'email', 'display_name']);
  return changes.length ? [event('member.updated', { role: after.value.role, changes })] : [];
}

function settingsEvents(change: Extract<ItemChange, { kind: 'memberSettings' }>): Derived[] {
  const { before, after } = change;
  if (!after || before?.value.revision === after.value.revision) return [];
  const settings = after.value;
  return [
    {
      type: 'member_settings.updated',
      resource: { type: 'member_settings', id: settings.user_id },
      data: { user_id: settings.user_id, sections: settings.changed_sections ?? [] },
      occurredAt: settings.updated_at,
      stamp: writerOf(before, after),
    },
  ];
}

function inviteEvents(change: Extract<ItemChange, { kind: 'invite' }>, recordedAt: string): Derived[] {
  const { before, after } = change;
  const invite = (after ?? before)?.value;
  if (!invite) return [];
  const stamp = writerOf(before, after);
  const event = (type: Derived['type'], occurredAt: string, data: Record<string, unknown> = {}, by = stamp): Derived => ({
    type,
    resource: { type: 'invite', id: invite.id },
    data: { email: invite.email, role: invite.role, ...data },
    occurredAt,
    stamp: by,
  });
  if (!after) {
    // Invites leave the table only by TTL; a pending one that does has expired.
    return before?.value.status === 'pending' && change.removedByTtl
      ? [event('invite.expired', before.value.expires_at, {}, undefined)]
      : [];
  }
  const next = after.value;
  if (!before) return [event('invite.created', next.created_at, { expires_at: next.expires_at })];
  const previous = before.value;
  const events: Derived[] = [];
  if (next.resent_at && next.resent_at !== previous.resent_at)
    events.push(event('invite.resent', next.resent_at, { expires_at: next.expires_at }));
  if (previous.status !== next.status && next.status === 'accepted')
    events.push(event('invite.accepted', next.accepted_at ?? next.updated_at, { user_id: next.accepted_by }));
  if (previous.status !== next.status && next.status === 'revoked')
    events.push(event('invite.revoked', next.revoked_at ?? next.updated_at));
  const delivery = next.delivery;
  if (previous.delivery.status !== delivery.status && delivery.status === 'sent') {
    events.push(event('invite.email_sent', delivery.sent_at ?? recordedAt, { attempts: delivery.attempts }));
  }
  if (previous.delivery.status !== delivery.status && delivery.status === 'failed') {
    events.push(event('invite.email_failed', recordedAt, { attempts: delivery.attempts, error: delivery.last_error }));
  }
  return events;
}

function templateEvents(change: Extract<ItemChange, { kind: 'template' }>): Derived[] {
  const { before, after } = change;
  // A removal is the tombstone's event.
  if (!after) return [];
  const template = after.value;
  const stamp = writerOf(before, after);
  const resource = { type: 'template' as const, id: template.id };
  if (!before) return [{ type: 'template.created', resource, data: { name: template.name }, occurredAt: template.created_at, stamp }];
  const changes = changedFields(before.value, template, ['name', 'description', 'sections', 'is_default']);
  return changes.length
    ? [{ type: 'template.updated', resource, data: { name: template.name, changes }, occurredAt: template.updated_at, stamp }]
    : [];
}

/**
 * An endpoint's events. Its URL is not in them (a URL may carry a token of the receiver's);
 * the dispatcher's bookkeeping (failing_since) changes no field an event is about.
 */
function webhookEvents(change: Extract<ItemChange, { kind: 'webhook' }>): Derived[] {
  const { before, after } = change;
  // A removal is the tombstone's event.
  if (!after) return [];
  const webhook = after.value;
  const stamp = writerOf(before, after);
  const event = (type: Derived['type'], data: Record<string, unknown>): Derived => ({
    type,
    resource: { type: 'webhook', id: webhook.id },
    data,
    occurredAt: webhook.updated_at,
    stamp,
  });
  if (!before) return [event('webhook.created', { events: webhook.events, enabled: webhook.enabled })];
  const previous = before.value;
  const events: Derived[] = [];
  if (previous.enabled && !webhook.enabled && webhook.disabled_reason === 'failing') {
    events.push(event('webhook.disabled', { reason: 'failing', failing_since: previous.failing_since }));
  } else {
    const changes = changedFields(previous, webhook, ['url', 'description', 'events', 'enabled']);
    if (changes.length) events.push(event('webhook.updated', { events: webhook.events, enabled: webhook.enabled, changes }));
  }
  if (previous.secrets[0]?.created_at !== webhook.secrets[0]?.created_at) events.push(event('webhook.secret_rotated', {}));
  return events;
}

/** A delivery is due when it is created and whenever a retry is asked for (a new dispatch id): the dispatcher's cue. */
function deliveryDueEvents(change: Extract<ItemChange, { kind: 'webhookDelivery' }>): Derived[] {
  const { before, after } = change;
  if (!after || after.value.status !== 'pending' || before?.value.dispatch_id === after.value.dispatch_id) return [];
  const delivery = after.value;
  return [
    {
      type: 'webhook.delivery_due',
      resource: { type: 'webhook_delivery', id: delivery.id },
      data: { webhook_id: delivery.webhook_id, dispatch_id: delivery.dispatch_id },
      occurredAt: delivery.next_attempt_at ?? delivery.created_at,
    },
  ];
}

/**
 * A key's life: created, rotated (a new secret), revoked. A recorded use (`last_used_at`)
 * is no event. The data names the key's kind, scopes and member, never its secret, hash or prefix.
 */
function apiKeyEvents(change: Extract<ItemChange, { kind: 'apiKey' }>): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const key = after.value;
  const stamp = writerOf(before, after);
  const event = (type: Derived['type'], occurredAt: string, data: Record<string, unknown> = {}): Derived => ({
    type,
    resource: { type: 'api_key', id: key.key_id },
    data: { kind: key.kind, name: key.name, scopes: key.scopes, user_id: key.user_id, ...data },
    occurredAt,
    stamp,
  });
  // A fixture key stored before keys were managed gets its managed item later: it was created then, not now.
  if (!before) return stamp ? [event('api_key.created', key.created_at, { expires_at: key.expires_at })] : [];
  const previous = before.value;
  const events: Derived[] = [];
  if (previous.secret_hash !== key.secret_hash && key.rotated_at) {
    events.push(
      event('api_key.rotated', key.rotated_at, { previous_secret_expires_at: key.previous_secret?.retires_at ?? key.rotated_at }),
    );
  }
  // A service revocation says why (member_removed); one through the API has its actor.
  if (!previous.revoked_at && key.revoked_at)
    events.push(event('api_key.revoked', key.revoked_at, stamp?.reason ? { reason: stamp.reason } : {}));
  return events;
}
