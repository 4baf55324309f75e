import { RETENTION_POLICY_REASON } from '../storage/change-stamp';
import { retentionDayOf } from '../storage/recording-items';
import type { ItemChange } from '../storage/stream-items';
import { changedFields, Derived, writerOf } from './derived-events';
import { actionItemEventsOf, summaryEventsOf } from './summary-events';
import { transcriptionEventsOf } from './transcription-events';
import { speakerEvents } from './transcript-setting-events';
import { translationEventsOf } from './translation-events';

export function recordingEvents(change: Extract<ItemChange, { kind: 'recording' }>, recordedAt: string): Derived[] {
  const { before, after } = change;
  // A removal is the tombstone's event (it knows who deleted); the REMOVE itself says nothing more.
  if (!after) return [];
  const recording = after.value;
  const stamp = writerOf(before, after);
  const event = (type: Derived['type'], data: Record<string, unknown> = {}): Derived => ({
    type,
    resource: { type: 'recording', id: recording.id },
    data: { recorded_by: recording.recorded_by, state: recording.state, ...data },
    occurredAt: recording.updated_at ?? recordedAt,
    stamp,
  });
  if (!before)
    return [
      event(
        'recording.created',
        recording.upload ? { content_type: recording.upload.content_type, size_bytes: recording.upload.size_bytes } : {},
      ),
    ];
  const previous = before.value;
  const events: Derived[] = [];
  // An upload lands once, from pending_upload: a transcription run undone goes back to uploaded without landing again.
  if (previous.state === 'pending_upload' && recording.state === 'uploaded') {
    events.push(event('recording.uploaded', { size_bytes: recording.upload?.uploaded_bytes ?? recording.upload?.size_bytes }));
  }
  if (previous.state === 'pending_upload' && recording.state === 'failed') events.push(event('recording.upload_failed'));
  if (!previous.deleted_at && recording.deleted_at) {
    // The retention policy's sweep says why before the usual event (docs/governance.md).
    if (stamp?.reason === RETENTION_POLICY_REASON)
      events.push(event('recording.retention_expired', { retention_day: retentionDayOf(previous) }));
    events.push(event('recording.trashed'));
  }
  if (previous.deleted_at && !recording.deleted_at) events.push(event('recording.restored'));
  const hold = recording.legal_hold;
  if (hold && hold.reason !== previous.legal_hold?.reason)
    events.push(event('recording.legal_hold_placed', { placed_by: hold.placed_by, placed_at: hold.placed_at }));
  if (previous.legal_hold && !hold) events.push(event('recording.legal_hold_released'));
  const changes = changedFields(previous, recording, ['title', 'description', 'tags']);
  if (changes.length) events.push(event('recording.updated', { changes }));
  // The processing stages' own events: each carries when it happened.
  for (const derived of [
    ...transcriptionEventsOf(previous, recording),
    ...translationEventsOf(previous, recording),
    ...summaryEventsOf(previous, recording),
  ]) {
    events.push({ ...event(derived.type, derived.data), occurredAt: derived.occurredAt });
  }
  for (const derived of speakerEvents(previous, recording)) events.push(event(derived.type, derived.data));
  return events;
}

/** A summary item's change: the action items it announces when it completes (its statuses are the recording digest's events). */
export function summaryItemEvents(change: Extract<ItemChange, { kind: 'summary' }>): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const stamp = writerOf(before, after);
  return actionItemEventsOf(before?.value, after.value).map(({ data, occurredAt }) => ({
    type: 'action_item.created',
    resource: { type: 'recording', id: after.value.recording_id },
    data,
    occurredAt,
    stamp,
  }));
}
export function tombstoneEvents(change: Extract<ItemChange, { kind: 'tombstone' }>): Derived[] {
  const { before, after } = change;
  // Only the tombstone's arrival is the deletion; its own expiry later says nothing.
  if (before || !after) return [];
  const tombstone = after.value;
  const stamp = after.stamp;
  if (tombstone.resource === 'template') {
    return [
      { type: 'template.deleted', resource: { type: 'template', id: tombstone.id }, data: {}, occurredAt: tombstone.deleted_at, stamp },
    ];
  }
  if (tombstone.resource === 'webhook') {
    return [
      { type: 'webhook.deleted', resource: { type: 'webhook', id: tombstone.id }, data: {}, occurredAt: tombstone.deleted_at, stamp },
    ];
  }
  return [
    {
      type: 'recording.deleted',
      resource: { type: 'recording', id: tombstone.id },
      data: { recorded_by: tombstone.recorded_by ?? null, reason: stamp?.reason ?? 'request' },
      occurredAt: tombstone.deleted_at,
      stamp,
    },
  ];
}
