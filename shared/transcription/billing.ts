/**
 * Billed minutes of one completed transcription: the audio's length rounded up to the next
 * whole minute, as the issue asks. Any audio at all bills at least one minute (Transcribe
 * itself bills per second with a 15-second minimum, so a 5-second file is never free there);
 * a job with no audio (0 s, or a length that is not a number) bills nothing.
 */
export function billedMinutesOf(durationSeconds: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return 0;
  // Lengths are kept to the millisecond: 60.0004 s is 60.000 s, one minute, not two.
  const milliseconds = Math.round(durationSeconds * 1000);
  return Math.max(1, Math.ceil(milliseconds / 60_000));
}
