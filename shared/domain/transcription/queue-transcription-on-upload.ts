import type { DomainEvent } from '../../schemas/event-catalog';
import { getRecording } from '../../storage/recordings';
import { commitTranscriptionTransition } from '../../storage/transcriptions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { QueueDeps, AutoQueueOutcome, jobLanguageFor, allowanceUsedUp, quotaReason, CONCURRENT } from './transcribe-recording';
import { hasUploadedFile, failedRecording, queuedRecording } from './transcription-changes';

/**
 * Automatic transcription (consumer of `recording.uploaded`): queues the first attempt when the
 * recorder's `auto_transcription` is on (the default). When the organization's allowance is
 * used up, the attempt fails at once with TRANSCRIPTION_QUOTA_EXCEEDED. Idempotent: a
 * recording with an attempt already (a redelivery, or someone asked first) is left alone.
 */
export async function queueTranscriptionOnUpload(
  deps: QueueDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'resource'>,
): Promise<AutoQueueOutcome> {
  if (event.type !== 'recording.uploaded')
    throw new Error(`The automatic transcription handles recording.uploaded only, not ${event.type}`);
  return retryOnWriteConflict(
    async () => {
      const recording = await getRecording(deps.db, event.org_id, event.resource.id, { consistent: true });
      if (!recording || recording.deleted_at || recording.transcription || !hasUploadedFile(recording)) return 'ignored';
      const { jobLanguage, autoTranscription, maxSpeakers } = await jobLanguageFor(deps, recording, undefined);
      if (!autoTranscription) return 'not_wanted';
      const now = deps.now();
      const { usedUp, allowance } = await allowanceUsedUp(deps, event.org_id, now);
      if (usedUp) {
        const failed = failedRecording(
          recording,
          now,
          { code: 'TRANSCRIPTION_QUOTA_EXCEEDED', reason: quotaReason(allowance) },
          jobLanguage,
        );
        await commitTranscriptionTransition(deps.db, { before: recording, after: failed });
        return 'quota_exceeded';
      }
      const queued = queuedRecording(recording, now, jobLanguage, maxSpeakers);
      await commitTranscriptionTransition(deps.db, {
        before: recording,
        after: queued,
        watch: { set: queued.transcription?.watch_due_at },
      });
      return 'queued';
    },
    // A consumer: exhausting the retries throws, and the queue delivers the event again.
    { attempts: 10, exhausted: CONCURRENT },
  );
}
