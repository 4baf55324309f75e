import { TRANSLATION_IN_FLIGHT } from '../../core/translation-statuses';
import type { Recording, RecordingTranslation } from '../../storage/recording-items';
import { restampedAt } from '../transcription/transcription-changes';

/**
 * The translation's transitions on the recording item (docs/translations.md): queued by a
 * request, processing while the consumer runs the engine, then completed or failed. Each
 * restamps the recording's `updated_at`, so a concurrent write of the recording conflicts.
 */
export type TranslationRecording = Recording & { translation: RecordingTranslation };

/** A reason in the one-line form `error_message` and `translation_error` carry. */
export const reasonLine = (reason: string) => reason.replace(/\s+/g, ' ').trim().slice(0, 300);

export function isTranslationInFlight(recording: Recording): boolean {
  return recording.translation !== undefined && TRANSLATION_IN_FLIGHT.includes(recording.translation.status);
}

/** A new translation, queued: the previous one's error goes (translation_error describes the latest). */
export function queuedTranslation(
  recording: Recording,
  now: Date,
  request: { id: string; from: string; to: string },
): TranslationRecording {
  const at = now.toISOString();
  const { translation_error: _previousError, ...rest } = recording;
  const translation: RecordingTranslation = {
    id: request.id,
    status: 'queued',
    from_language: request.from,
    to_language: request.to,
    attempt: (recording.translation?.attempt ?? 0) + 1,
    created_at: at,
    updated_at: at,
  };
  return { ...rest, translation, updated_at: restampedAt(recording, now) };
}

export function processingTranslation(recording: TranslationRecording, now: Date): TranslationRecording {
  return {
    ...recording,
    translation: { ...recording.translation, status: 'processing', updated_at: now.toISOString() },
    updated_at: restampedAt(recording, now),
  };
}

export function completedTranslation(recording: TranslationRecording, now: Date, segmentCount: number): TranslationRecording {
  const at = now.toISOString();
  return {
    ...recording,
    translation: { ...recording.translation, status: 'completed', segment_count: segmentCount, finished_at: at, updated_at: at },
    updated_at: restampedAt(recording, now),
  };
}

/** Failed: `translation_error` is `"<CODE>: <reason>"`, like `transcript_error`; the translation's `error_message` is the reason. */
export function failedTranslation(
  recording: TranslationRecording,
  now: Date,
  failure: { code: string; reason: string },
): TranslationRecording {
  const at = now.toISOString();
  const reason = reasonLine(failure.reason);
  return {
    ...recording,
    translation: {
      ...recording.translation,
      status: 'failed',
      error_code: failure.code,
      error_message: reason,
      finished_at: at,
      updated_at: at,
    },
    translation_error: `${failure.code}: ${reason}`,
    updated_at: restampedAt(recording, now),
  };
}

/** The spec's Translation object of a recording's latest translation. */
export function translationView(translation: RecordingTranslation) {
  return {
    id: translation.id,
    created_at: translation.created_at,
    updated_at: translation.updated_at,
    detected_language: translation.from_language,
    to_language: translation.to_language,
    processing_status: translation.status,
    error_message: translation.error_message ?? '',
  };
}
