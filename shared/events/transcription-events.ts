import type { EventType } from '../schemas/event-catalog';
import type { Recording } from '../storage/recording-items';

/** One transcription event of a recording change: its type, its data beside the recording's, and when it happened. */
export interface TranscriptionEvent {
  type: Extract<EventType, `recording.transcription_${string}`>;
  data: Record<string, unknown>;
  occurredAt: string;
}

/**
 * The transcription events of a recording change (docs/events.md): an attempt queued, completed
 * (language, duration, billed minutes, segment count) or failed (its error code). Never the
 * transcript's text. An attempt is queued when its number or status arrives at `queued`; it
 * ended when its `finished_at` is new, so a run discarded with its recording in the trash, or a
 * write that only moves the sweeper's watch, says nothing.
 */
export function transcriptionEventsOf(previous: Recording, recording: Recording): TranscriptionEvent[] {
  const before = previous.transcription;
  const run = recording.transcription;
  if (!run) return [];
  const attempt = { attempt: run.attempt };
  if (run.status === 'queued' && (before?.status !== 'queued' || before.attempt !== run.attempt)) {
    return [{ type: 'recording.transcription_queued', data: { ...attempt, language: run.job_language }, occurredAt: run.queued_at }];
  }
  if (!run.finished_at || run.finished_at === before?.finished_at) return [];
  if (run.status === 'completed') {
    return [
      {
        type: 'recording.transcription_completed',
        data: {
          ...attempt,
          language: recording.language,
          duration: recording.duration,
          billed_minutes: run.billed_minutes ?? 0,
          segment_count: run.segment_count ?? 0,
        },
        occurredAt: run.finished_at,
      },
    ];
  }
  if (run.status === 'failed')
    return [
      {
        type: 'recording.transcription_failed',
        data: { ...attempt, error_code: run.error_code ?? 'TRANSCRIPTION_FAILED' },
        occurredAt: run.finished_at,
      },
    ];
  return [];
}
