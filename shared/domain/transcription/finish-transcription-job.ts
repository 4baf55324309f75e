import { TRANSCRIPT_MAX_BYTES } from '../../core/limits';
import { newId } from '../../ids';
import { getMembership } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import type { Recording, RecordingTranscription, TranscriptRedaction } from '../../storage/recording-items';
import { redactSegments } from '../../redaction/redactor';
import { measuredSpeakers } from '../speakers/speaker-names';
import { redactedTypesOf } from '../transcript-settings/redaction';
import type { TranscriptSegment } from '../../storage/recording-part-items';
import { getRecording } from '../../storage/recordings';
import { commitTranscriptionTransition, deleteTranscriptChunks, writeTranscriptChunks } from '../../storage/transcriptions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { billedMinutesOf } from '../../transcription/billing';
import type { JobStatus } from '../../transcription/transcribe-jobs';
import { durationOf, readTranscribeOutput, speakerTurnsOf } from '../../transcription/transcribe-output';
import { failureOf } from '../../transcription/transcription-failures';
import type { TranscriptionJobDeps } from './transcription-deps';
import { completedRecording, discardedRecording, failedRecording, jobOf, monthOf, outputKeyOf } from './transcription-changes';

export type FinishOutcome = 'completed' | 'failed' | 'running' | 'duplicate' | 'discarded' | 'superseded' | 'foreign';

type Running = Recording & { transcription: RecordingTranscription };

/** The attempt a job is for, while it is still the recording's and not ended (its start may not be committed yet). */
const runningAttempt = (recording: Recording | undefined, attempt: number): recording is Running =>
  recording?.transcription?.attempt === attempt &&
  (recording.transcription.status === 'processing' || recording.transcription.status === 'queued');

/** A finished job's transcript, or why it has none. */
type JobResult =
  { ok: true; segments: TranscriptSegment[]; language: string; durationSeconds: number } | { ok: false; code: string; reason: string };

async function resultOf(deps: TranscriptionJobDeps, status: JobStatus, outputKey: string, recording: Running): Promise<JobResult> {
  if (status.status === 'FAILED') return { ok: false, ...failureOf(status.failureReason) };
  const json = await deps.outputs.readJson(outputKey);
  if (json === undefined) return { ok: false, code: 'TRANSCRIPTION_FAILED', reason: 'the job completed without its output.' };
  let output;
  try {
    output = readTranscribeOutput(json);
  } catch {
    return { ok: false, code: 'TRANSCRIPTION_FAILED', reason: 'the job output is not in the expected shape.' };
  }
  const segments = speakerTurnsOf(output);
  if (Buffer.byteLength(JSON.stringify(segments)) > TRANSCRIPT_MAX_BYTES) {
    return { ok: false, code: 'TRANSCRIPTION_FAILED', reason: `the transcript is over ${TRANSCRIPT_MAX_BYTES / 1_000_000} MB.` };
  }
  const jobLanguage = recording.transcription.job_language;
  const language = output.results.language_code ?? status.languageCode ?? (jobLanguage === 'identify' ? recording.language : jobLanguage);
  return { ok: true, segments, language, durationSeconds: durationOf(output, status.mediaSeconds) };
}

/**
 * The turns to store: as the job wrote them when Transcribe redacted them itself (asked for at the
 * start), else redacted here when the organization's redaction is on as the transcript completes
 * (docs/transcript-controls.md, "Redaction"). Only the redacted turns are ever stored.
 */
async function redactedAsSet(
  deps: TranscriptionJobDeps,
  recording: Running,
  result: { segments: TranscriptSegment[]; language: string },
): Promise<{ segments: TranscriptSegment[]; redaction?: TranscriptRedaction }> {
  const asked = recording.transcription.redaction;
  if (asked?.engine === 'transcribe') return { segments: result.segments, redaction: asked };
  const types = redactedTypesOf((await getOrganization(deps.db, recording.org_id))?.redaction);
  if (!types.length) return { segments: result.segments };
  const { segments } = redactSegments(result.segments, types, { language: result.language });
  return { segments, redaction: { engine: 'service', entity_types: types } };
}

/** The transcript's speakers; a single voice is the recorder's (one GetItem of their membership). */
const speakersOfTranscript = (deps: TranscriptionJobDeps, recording: Running, segments: TranscriptSegment[]) =>
  measuredSpeakers(segments, () => getMembership(deps.db, recording.org_id, recording.recorded_by));

/**
 * Finishes a Transcribe job (consumer of Transcribe's job state change event, and the sweeper
 * when that best-effort event never came): asks Transcribe for the job, then
 * - completed: the speaker turns are stored as a new chunk set, and one transaction points the
 *   transcript header to it, marks the recording `ready` with the language and duration, and
 *   adds the billed minutes to the recorder's and the organization's month (ADD); the previous
 *   transcript's chunks and the output object go after;
 * - failed: `transcript_error` says why (`<CODE>: <reason>`);
 * - its recording deleted or trashed meanwhile, or the attempt superseded: the result is
 *   discarded, leaving no object or chunk behind.
 * Idempotent: a redelivery finds the attempt ended and only repeats the clean-up, so a
 * completion never counts twice; concurrent completions of different recordings never lose a
 * count (ADD).
 */
export async function finishTranscriptionJob(deps: TranscriptionJobDeps, jobName: string): Promise<FinishOutcome> {
  const job = jobOf(jobName);
  if (!job) return 'foreign';
  const { orgId, recordingId, attempt } = job;
  const outputKey = outputKeyOf(orgId, recordingId, attempt);
  const status: JobStatus = (await deps.jobs.get(jobName)) ?? {
    status: 'FAILED',
    failureReason:
      'The transcription job no longer exists (Transcribe forgets jobs after 90 days, the local stand-in after its data is cleared); transcribe the recording again.',
  };
  if (status.status === 'QUEUED' || status.status === 'IN_PROGRESS') return 'running';
  const outcome = await retryOnWriteConflict(
    async (): Promise<FinishOutcome> => {
      const recording = await getRecording(deps.db, orgId, recordingId, { consistent: true });
      if (!recording) {
        await deleteTranscriptChunks(deps.db, orgId, recordingId, 'all');
        return 'discarded';
      }
      if (!runningAttempt(recording, attempt)) {
        const ended = recording.transcription?.attempt === attempt;
        if (ended && recording.transcription?.status === 'completed')
          await deleteTranscriptChunks(deps.db, orgId, recordingId, { keepSet: attempt });
        return ended ? 'duplicate' : 'superseded';
      }
      const now = deps.now();
      const watch = { remove: recording.transcription.watch_due_at };
      if (recording.deleted_at) {
        await commitTranscriptionTransition(deps.db, { before: recording, after: discardedRecording(recording, now), watch });
        await deleteTranscriptChunks(deps.db, orgId, recordingId, { onlySet: attempt });
        return 'discarded';
      }
      const result = await resultOf(deps, status, outputKey, recording);
      if (!result.ok) {
        await commitTranscriptionTransition(deps.db, { before: recording, after: failedRecording(recording, now, result), watch });
        return 'failed';
      }
      const { segments, redaction } = await redactedAsSet(deps, recording, result);
      const chunkCount = await writeTranscriptChunks(deps.db, orgId, recordingId, attempt, segments);
      const billedMinutes = billedMinutesOf(result.durationSeconds);
      const after = completedRecording(recording, now, {
        language: result.language,
        durationSeconds: result.durationSeconds,
        billedMinutes,
        segmentCount: segments.length,
        speakers: await speakersOfTranscript(deps, recording, segments),
        redaction,
      });
      const at = now.toISOString();
      await commitTranscriptionTransition(deps.db, {
        before: recording,
        after,
        watch,
        usage: { month: monthOf(now), minutes: billedMinutes },
        transcriptHeader: {
          id: newId('trs'),
          language: result.language,
          segment_count: segments.length,
          chunk_count: chunkCount,
          chunk_set: attempt,
          created_at: at,
          updated_at: at,
        },
      });
      await deleteTranscriptChunks(deps.db, orgId, recordingId, { keepSet: attempt });
      return 'completed';
    },
    // A consumer: exhausting the retries throws, and the queue delivers the event again.
    { attempts: 10, exhausted: () => new Error(`Recording ${recordingId} kept changing while its transcription was being finished`) },
  );
  // The transcript lives in the table: Transcribe's output (the words again, with confidences) is not kept.
  await deps.outputs.remove(outputKey);
  return outcome;
}
