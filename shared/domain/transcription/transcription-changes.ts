import { DEFAULT_SETTINGS } from '../../core/settings-catalog';
import type { TranscriptStatus } from '../../core/transcript-statuses';
import { TRANSCRIPTION_IN_FLIGHT } from '../../core/transcript-statuses';
import type { Recording, RecordingTranscription, TranscriptRedaction } from '../../storage/recording-items';
import type { RecordingSpeaker } from '../../storage/speaker-items';
import { recordingObjectPrefix } from '../../storage/recording-objects';

/**
 * The transcription's transitions as plain functions of the recording as read (docs/transcription.md):
 * each returns the recording to store. Storage commits it only while the recording is still as read.
 */

/** How long a queued attempt waits for its start before the sweeper starts it (a lost event, or Transcribe's quota was full). */
export const QUEUED_RECHECK_MS = 10 * 60_000;
/** How long a running job goes without its completion event before the sweeper asks Transcribe (the event is best-effort). */
export const RUNNING_RECHECK_MS = 15 * 60_000;
/** A job not finished this long after it started has failed (TRANSCRIPTION_TIMEOUT): Transcribe takes a fraction of the audio's length, at most 4 hours. */
export const STUCK_AFTER_MS = 8 * 60 * 60_000;
/** Speaker labels: the most speakers Transcribe is asked to tell apart for an attempt queued without the recorder's `max_speakers`. */
export const MAX_SPEAKERS = DEFAULT_SETTINGS.max_speakers;

/** The Recording's `transcript_status`: recordings with a transcript from before the pipeline (fixtures) read as completed. */
export function transcriptStatusOf(recording: Recording): TranscriptStatus {
  if (recording.transcription) return recording.transcription.status;
  if (recording.related.transcript) return 'completed';
  return recording.transcript_error ? 'failed' : 'none';
}

export function isTranscriptionInFlight(recording: Recording): boolean {
  return recording.transcription !== undefined && TRANSCRIPTION_IN_FLIGHT.includes(recording.transcription.status);
}

/** Whether the recording's file landed as declared (the upload completion set `uploaded_at` and no error). */
export function hasUploadedFile(recording: Recording): boolean {
  return (
    Boolean(recording.upload?.uploaded_at) &&
    recording.upload_error === undefined &&
    recording.state !== 'pending_upload' &&
    recording.state !== 'failed'
  );
}

/** The UTC calendar month of an instant, YYYY-MM: usage starts again at 0 each month. */
export function monthOf(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}

/**
 * A Transcribe job's name: unique per recording and attempt (Transcribe refuses a name in use),
 * and naming the organization so the finisher finds the recording from the name alone. Ids
 * hold letters, digits, `_` and `-`, so the dots separate them unambiguously.
 */
export function jobNameOf(orgId: string, recordingId: string, attempt: number): string {
  return `voice-org.${orgId}.${recordingId}.${attempt}`;
}

/** The recording and attempt a job name is for, or undefined for a job this service did not start. */
export function jobOf(jobName: string): { orgId: string; recordingId: string; attempt: number } | undefined {
  const match = /^voice-org\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,64})\.([1-9]\d{0,5})$/.exec(jobName);
  return match ? { orgId: match[1], recordingId: match[2], attempt: Number(match[3]) } : undefined;
}

/** Where the job writes its output JSON: under the recording's prefix, so deleting the recording removes it too. */
export function outputKeyOf(orgId: string, recordingId: string, attempt: number): string {
  return `${recordingObjectPrefix(orgId, recordingId)}transcribe/${attempt}.json`;
}

/**
 * The `updated_at` of a transition: now, but always later than the one read, so that a
 * transition conditioned on the read `updated_at` never passes twice (same millisecond, or a
 * clock behind the last writer's).
 */
export function restampedAt(before: Recording, now: Date): string {
  const read = Date.parse(before.updated_at);
  return new Date(Number.isNaN(read) ? now.getTime() : Math.max(now.getTime(), read + 1)).toISOString();
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** Without the previous attempt's error: a new attempt starts clean. */
function withoutError(recording: Recording): Recording {
  const { transcript_error: _error, ...rest } = recording;
  return rest;
}

/** A new attempt, queued: the recording is `processing` until it completes or fails. */
export function queuedRecording(recording: Recording, now: Date, jobLanguage: string, maxSpeakers: number = MAX_SPEAKERS): Recording {
  const transcription: RecordingTranscription = {
    status: 'queued',
    attempt: (recording.transcription?.attempt ?? 0) + 1,
    job_language: jobLanguage,
    max_speakers: maxSpeakers,
    queued_at: now.toISOString(),
    watch_due_at: later(now, QUEUED_RECHECK_MS),
  };
  return { ...withoutError(recording), state: 'processing', transcription, updated_at: restampedAt(recording, now) };
}

/** Its job started: the sweeper asks Transcribe if no completion event came by the next check. */
export function startedRecording(
  recording: Recording & { transcription: RecordingTranscription },
  now: Date,
  jobName: string,
  controls: Pick<RecordingTranscription, 'vocabulary' | 'redaction'> = {},
): Recording {
  return {
    ...recording,
    transcription: {
      ...recording.transcription,
      ...(controls.vocabulary ? { vocabulary: controls.vocabulary } : {}),
      ...(controls.redaction ? { redaction: controls.redaction } : {}),
      status: 'processing',
      job_name: jobName,
      started_at: now.toISOString(),
      watch_due_at: later(now, RUNNING_RECHECK_MS),
    },
    updated_at: restampedAt(recording, now),
  };
}

/** Still waiting (queued, Transcribe's quota full; or running): look again later. */
export function recheckedRecording(
  recording: Recording & { transcription: RecordingTranscription },
  now: Date,
  afterMs: number,
): Recording {
  return {
    ...recording,
    transcription: { ...recording.transcription, watch_due_at: later(now, afterMs) },
    updated_at: restampedAt(recording, now),
  };
}

/** What a completed job gave. */
export interface CompletedTranscript {
  language: string;
  durationSeconds: number;
  billedMinutes: number;
  segmentCount: number;
  /** The transcript's speakers, measured from its turns (a single voice is the recorder's). */
  speakers: RecordingSpeaker[];
  /** Set when the transcript was redacted. */
  redaction?: TranscriptRedaction;
}

/** Completed: the recording takes the language transcribed and the audio's length, and is `ready`. */
export function completedRecording(
  recording: Recording & { transcription: RecordingTranscription },
  now: Date,
  done: CompletedTranscript,
): Recording {
  const { watch_due_at: _watch, error_code: _code, ...transcription } = recording.transcription;
  return {
    ...withoutError(recording),
    state: 'ready',
    language: done.language,
    duration: done.durationSeconds,
    related: { ...recording.related, transcript: true },
    transcription: {
      ...transcription,
      status: 'completed',
      finished_at: now.toISOString(),
      billed_minutes: done.billedMinutes,
      segment_count: done.segmentCount,
      ...(done.redaction ? { redaction: done.redaction } : {}),
    },
    // A new transcript's voices are new: names given to the previous one's labels do not carry over.
    speakers: done.speakers,
    updated_at: restampedAt(recording, now),
  };
}

/**
 * Failed (or refused before it started: the allowance was used up): `transcript_error` is
 * `<CODE>: <reason>`, and the recording is `ready` (`failed` is for uploads alone). A
 * transcript from an earlier attempt stays.
 */
export function failedRecording(
  recording: Recording,
  now: Date,
  failure: { code: string; reason: string },
  jobLanguage?: string,
): Recording {
  const base: RecordingTranscription = recording.transcription ?? {
    status: 'failed',
    attempt: 1,
    job_language: jobLanguage ?? 'identify',
    queued_at: now.toISOString(),
  };
  const { watch_due_at: _watch, ...transcription } = base;
  return {
    ...recording,
    state: 'ready',
    transcript_error: `${failure.code}: ${failure.reason}`,
    transcription: { ...transcription, status: 'failed', finished_at: now.toISOString(), error_code: failure.code },
    updated_at: restampedAt(recording, now),
  };
}

/**
 * A run whose recording went to the trash meanwhile: its result is discarded, and the
 * recording is left as it was before the run (a restore shows the earlier transcript, or none).
 */
export function discardedRecording(recording: Recording & { transcription: RecordingTranscription }, now: Date): Recording {
  const { transcription: run, ...rest } = recording;
  const { watch_due_at: _watch, ...settled } = run;
  const hadTranscript = recording.related.transcript;
  return {
    ...rest,
    state: hadTranscript ? 'ready' : 'uploaded',
    ...(hadTranscript ? { transcription: { ...settled, status: 'completed' as const } } : {}),
    updated_at: restampedAt(recording, now),
  };
}
