/**
 * Why a transcription failed, as a machine code and a readable reason: the Recording's
 * `transcript_error` is `"<CODE>: <reason>"` and the `recording.transcription_failed` event
 * carries the code alone.
 *
 * - UNSUPPORTED_MEDIA: the file is not audio the engine can decode (format, sample rate,
 *   channels, size or length out of bounds); re-running it unchanged fails again.
 * - UNSUPPORTED_LANGUAGE: the engine does not transcribe the language asked for.
 * - ENGINE_UNAVAILABLE: the engine is not there (locally: its npm packages are missing).
 * - TRANSCRIPTION_QUOTA_EXCEEDED: the organization's monthly minutes are used up (decided by us, not the engine).
 * - TRANSCRIPTION_TIMEOUT: the job did not finish within the documented bound (the sweeper's).
 * - TRANSCRIPTION_FAILED: any other failure the engine reported.
 */
export const TRANSCRIPTION_ERROR_CODES = [
  'UNSUPPORTED_MEDIA',
  'UNSUPPORTED_LANGUAGE',
  'ENGINE_UNAVAILABLE',
  'TRANSCRIPTION_QUOTA_EXCEEDED',
  'TRANSCRIPTION_TIMEOUT',
  'TRANSCRIPTION_FAILED',
] as const;
export type TranscriptionErrorCode = (typeof TRANSCRIPTION_ERROR_CODES)[number];

export interface TranscriptionFailure {
  code: TranscriptionErrorCode;
  reason: string;
}

/**
 * Transcribe's FailureReason texts → codes. The documented values (TranscriptionJob.FailureReason
 * in the API reference) are about media: "Unsupported media format", "The media format provided
 * does not match the detected media format", "Invalid sample rate for audio file", "The sample
 * rate provided does not match the detected sample rate", "Invalid file size: file size too
 * large", "Invalid number of channels: number of channels too large". Other texts seen from the
 * service (a file it cannot parse, audio too long) are matched by their words; the local stand-in
 * words its failures the same way (infra/local/transcribe-emulator.ts).
 */
const FAILURE_PATTERNS: readonly [RegExp, TranscriptionErrorCode][] = [
  [/^ENGINE_UNAVAILABLE\b/, 'ENGINE_UNAVAILABLE'],
  [/unsupported language|language (code )?(is )?not supported/i, 'UNSUPPORTED_LANGUAGE'],
  [/media format|sample rate|number of channels|file size|parse (the )?audio|audio file|duration|too long|decode/i, 'UNSUPPORTED_MEDIA'],
];

const DEFAULT_REASONS: Record<TranscriptionErrorCode, string> = {
  UNSUPPORTED_MEDIA: 'The file is not audio the transcription engine can read.',
  UNSUPPORTED_LANGUAGE: 'The transcription engine does not transcribe this language.',
  ENGINE_UNAVAILABLE: 'The transcription engine is not available.',
  TRANSCRIPTION_QUOTA_EXCEEDED: "The organization's transcription minutes for this month are used up.",
  TRANSCRIPTION_TIMEOUT: 'The transcription did not finish in time.',
  TRANSCRIPTION_FAILED: 'The transcription engine failed.',
};

/** Reasons are stored on the recording and shown: bounded, one line. */
const MAX_REASON_LENGTH = 300;

/** The code and readable reason of an engine's failure text (the engine's own words, or ours when it gave none). */
export function failureOf(failureReason: string | undefined): TranscriptionFailure {
  const text = (failureReason ?? '').replace(/\s+/g, ' ').trim();
  const code = FAILURE_PATTERNS.find(([pattern]) => pattern.test(text))?.[1] ?? 'TRANSCRIPTION_FAILED';
  // The local stand-in prefixes its own code: the reason is what follows it.
  const reason = text.replace(/^ENGINE_UNAVAILABLE:\s*/, '');
  return { code, reason: (reason || DEFAULT_REASONS[code]).slice(0, MAX_REASON_LENGTH) };
}

/** A failure of ours (quota, timeout), with the default reason unless one is given. */
export function transcriptionFailure(code: TranscriptionErrorCode, reason?: string): TranscriptionFailure {
  return { code, reason: (reason ?? DEFAULT_REASONS[code]).slice(0, MAX_REASON_LENGTH) };
}

/** The Recording's transcript_error text: `"<CODE>: <reason>"`. */
export function transcriptErrorText(failure: TranscriptionFailure): string {
  return `${failure.code}: ${failure.reason}`;
}
