/**
 * Where a recording's transcription is (the Recording's `transcript_status`): `none` before any
 * was asked for, then `queued` → `processing` → `completed` or `failed`. A re-run goes through
 * `queued` and `processing` again while the previous transcript stays readable.
 */
export const TRANSCRIPT_STATUSES = ['none', 'queued', 'processing', 'completed', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/** The statuses a transcription attempt is stored with (an attempt exists once one was asked for). */
export const TRANSCRIPTION_RUN_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type TranscriptionRunStatus = (typeof TRANSCRIPTION_RUN_STATUSES)[number];

/** Statuses during which a stage is queued or running: the recording's `state` is `processing`. */
export const TRANSCRIPTION_IN_FLIGHT: readonly TranscriptionRunStatus[] = ['queued', 'processing'];
