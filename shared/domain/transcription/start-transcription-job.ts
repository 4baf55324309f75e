import type { DomainEvent } from '../../schemas/event-catalog';
import type { Recording, RecordingTranscription } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitTranscriptionTransition } from '../../storage/transcriptions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { jobControlsFor, type JobControls } from './job-controls';
import type { TranscriptionJobDeps } from './transcription-deps';
import { failureOf } from '../../transcription/transcription-failures';
import {
  discardedRecording,
  failedRecording,
  jobNameOf,
  MAX_SPEAKERS,
  outputKeyOf,
  recheckedRecording,
  startedRecording,
} from './transcription-changes';

/** How soon a start Transcribe refused (its concurrent job quota is full) is tried again by the sweeper. */
export const THROTTLED_RECHECK_MS = 2 * 60_000;

export type StartOutcome = 'started' | 'throttled' | 'refused' | 'discarded' | 'ignored';

/** The adapter's TranscriptionJobRefusedError (shared/transcription/transcribe-jobs.ts), by its name and reason. */
const isJobRefusal = (error: unknown): error is Error & { reason: string } =>
  error instanceof Error && error.name === 'TranscriptionJobRefusedError' && typeof (error as { reason?: unknown }).reason === 'string';

type Queued = Recording & { transcription: RecordingTranscription };

const isQueuedAttempt = (recording: Recording | undefined, attempt: number): recording is Queued =>
  recording?.transcription?.status === 'queued' && recording.transcription.attempt === attempt;

/**
 * Starts the Transcribe job of a queued attempt (consumer of `recording.transcription_queued`,
 * and the sweeper for an attempt whose start never came): the job reads the recording's file
 * and writes its output under the recording's prefix, speaker labels on, in the attempt's
 * language (or identifying it). Transcribe's concurrent job quota full: the attempt stays
 * queued and the sweeper tries again (jobs beyond the quota wait, they do not fail). A job
 * name in use means an earlier delivery started it. An attempt no longer queued (started,
 * superseded, its recording deleted) is left alone; one whose recording went to the trash is
 * discarded.
 */
export async function startQueuedTranscription(
  deps: TranscriptionJobDeps,
  orgId: string,
  recordingId: string,
  attempt: number,
): Promise<StartOutcome> {
  return retryOnWriteConflict(
    async () => {
      const recording = await getRecording(deps.db, orgId, recordingId, { consistent: true });
      if (!isQueuedAttempt(recording, attempt) || !recording.upload) return 'ignored';
      const now = deps.now();
      const watchNow = recording.transcription.watch_due_at;
      if (recording.deleted_at) {
        await commitTranscriptionTransition(deps.db, {
          before: recording,
          after: discardedRecording(recording, now),
          watch: { remove: watchNow },
        });
        return 'discarded';
      }
      const jobName = jobNameOf(orgId, recordingId, attempt);
      const { job_language: jobLanguage } = recording.transcription;
      let controls = await jobControlsFor(deps.db, orgId, jobLanguage);
      const job = {
        jobName,
        bucket: deps.bucket,
        key: recording.upload.s3_key,
        outputBucket: deps.bucket,
        outputKey: outputKeyOf(orgId, recordingId, attempt),
        language: jobLanguage === 'identify' ? { identify: true as const } : { languageCode: jobLanguage },
        maxSpeakers: recording.transcription.max_speakers ?? MAX_SPEAKERS,
      };
      const startWith = (with_: JobControls) =>
        deps.jobs.start({ ...job, vocabularyName: with_.vocabularyName, redactEntityTypes: with_.redaction?.entity_types });
      let started;
      try {
        try {
          started = await startWith(controls);
        } catch (error) {
          // A vocabulary Transcribe no longer takes (removed or updating since it was read): the job runs without it, never blocked.
          if (!isJobRefusal(error) || !controls.vocabularyName) throw error;
          controls = { ...controls, vocabularyName: undefined, vocabulary: 'pending' };
          started = await startWith(controls);
        }
      } catch (error) {
        // Transcribe refused the job itself (a setting it does not take for this media or language): retrying cannot help.
        if (!isJobRefusal(error)) throw error;
        const failed = failedRecording(recording, now, failureOf(error.reason));
        await commitTranscriptionTransition(deps.db, { before: recording, after: failed, watch: { remove: watchNow } });
        return 'refused';
      }
      const after =
        started === 'throttled'
          ? recheckedRecording(recording, now, THROTTLED_RECHECK_MS)
          : startedRecording(recording, now, jobName, { vocabulary: controls.vocabulary, redaction: controls.redaction });
      await commitTranscriptionTransition(deps.db, {
        before: recording,
        after,
        watch: { remove: watchNow, set: after.transcription?.watch_due_at },
      });
      return started === 'throttled' ? 'throttled' : 'started';
    },
    // A consumer: exhausting the retries throws, and the queue delivers the event again.
    { attempts: 10, exhausted: () => new Error(`Recording ${recordingId} kept changing while its transcription was being started`) },
  );
}

/** The consumer of `recording.transcription_queued`: starts that attempt's job. */
export async function startTranscriptionJob(
  deps: TranscriptionJobDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'resource' | 'data'>,
): Promise<StartOutcome> {
  if (event.type !== 'recording.transcription_queued')
    throw new Error(`The transcription starter handles recording.transcription_queued only, not ${event.type}`);
  const attempt = event.data.attempt;
  if (typeof attempt !== 'number') throw new Error(`Event ${event.type} of ${event.resource.id} carries no attempt`);
  return startQueuedTranscription(deps, event.org_id, event.resource.id, attempt);
}
