import type { EventType } from '../schemas/event-catalog';
import type { Recording } from '../storage/recording-items';

/** One translation event of a recording change: its type, its data beside the recording's, and when it happened. */
export interface TranslationEvent {
  type: Extract<EventType, `recording.translation_${string}`>;
  data: Record<string, unknown>;
  occurredAt: string;
}

/**
 * The translation events of a recording change (docs/events.md): a translation queued (it
 * triggers the translation consumer), completed (segment count) or failed (its error code).
 * Ids, languages and codes only: never the transcript's or the summary's text, nor the
 * engine's reason (it may quote the input). Queued when a new translation id arrives; ended
 * when its `finished_at` is new, so a run discarded with its recording says nothing.
 */
export function translationEventsOf(previous: Recording, recording: Recording): TranslationEvent[] {
  const before = previous.translation;
  const run = recording.translation;
  if (!run) return [];
  const data = { translation_id: run.id, from_language: run.from_language, to_language: run.to_language };
  if (run.status === 'queued' && before?.id !== run.id) return [{ type: 'recording.translation_queued', data, occurredAt: run.created_at }];
  if (!run.finished_at || (before?.id === run.id && before.finished_at === run.finished_at)) return [];
  if (run.status === 'completed')
    return [
      { type: 'recording.translation_completed', data: { ...data, segment_count: run.segment_count ?? 0 }, occurredAt: run.finished_at },
    ];
  if (run.status === 'failed')
    return [
      {
        type: 'recording.translation_failed',
        data: { ...data, error_code: run.error_code ?? 'TRANSLATION_FAILED' },
        occurredAt: run.finished_at,
      },
    ];
  return [];
}
