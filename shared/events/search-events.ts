import type { Recording } from '../storage/recording-items';
import type { ItemChange } from '../storage/stream-items';
import type { Derived } from './derived-events';

/** The recording fields whose change changes what search holds of it. */
const SEARCHED_FIELDS = [
  'title',
  'deleted_at',
  'transcription',
  'related',
  'recorded_by',
  'language',
  'speakers',
] as const satisfies readonly (keyof Recording)[];

/**
 * `recording.index_due` for a change that search sees: a recording written, retitled, trashed,
 * restored or transcribed, or any change of one of its summaries (written, completed, deleted,
 * an action item edited). The indexer reads the recording's state as it is then, so one event
 * for several changes, or two for one, index the same.
 */
export function searchIndexEvents(change: Extract<ItemChange, { kind: 'recording' | 'summary' }>): Derived[] {
  if (change.kind === 'summary') {
    const summary = (change.after ?? change.before)?.value;
    return summary ? [indexDue(summary.recording_id, summary.updated_at)] : [];
  }
  const { before, after } = change;
  // A recording removed for good is recording.deleted's to clean up.
  if (!after) return [];
  const changed = !before || SEARCHED_FIELDS.some((field) => JSON.stringify(before.value[field]) !== JSON.stringify(after.value[field]));
  return changed ? [indexDue(after.value.id, after.value.updated_at)] : [];
}

const indexDue = (recordingId: string, occurredAt: string): Derived => ({
  type: 'recording.index_due',
  resource: { type: 'recording', id: recordingId },
  data: {},
  occurredAt,
});
