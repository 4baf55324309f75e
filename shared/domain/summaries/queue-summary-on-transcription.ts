import type { DomainEvent } from '../../schemas/event-catalog';
import { getRecording } from '../../storage/recordings';
import { commitSummaryTransition } from '../../storage/summaries';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { SummaryQueueDeps, AutoSummaryOutcome, templateFor, hasCompletedTranscript, refusalOf, CONCURRENT } from './create-summary';
import { summaryIdForEvent, queuedSummary, withDigest } from './summary-changes';

/**
 * Automatic summary (consumer of `recording.transcription_completed`): queues one summary with
 * the organization's default template (else the built-in one). Idempotent by event id: the
 * summary's id is derived from it and its item is put only while absent.
 */
export async function queueSummaryOnTranscription(
  deps: Omit<SummaryQueueDeps, 'newSummaryId'>,
  event: Pick<DomainEvent, 'id' | 'type' | 'org_id' | 'resource'>,
): Promise<AutoSummaryOutcome> {
  if (event.type !== 'recording.transcription_completed')
    throw new Error(`The automatic summary handles recording.transcription_completed only, not ${event.type}`);
  const id = summaryIdForEvent(event.id);
  const template = await templateFor(deps.db, event.org_id, undefined);
  return retryOnWriteConflict(
    async () => {
      const recording = await getRecording(deps.db, event.org_id, event.resource.id, { consistent: true });
      if (!recording || recording.deleted_at || !hasCompletedTranscript(recording)) return 'ignored';
      if (recording.summaries?.some((digest) => digest.id === id)) return 'ignored';
      const now = deps.now();
      const refusal = refusalOf(recording, template, now);
      if (refusal) return refusal.code === 'SUMMARY_IN_PROGRESS' ? 'in_progress' : 'limit_reached';
      const summary = queuedSummary(recording, id, template, now);
      await commitSummaryTransition(deps.db, {
        before: recording,
        after: withDigest(recording, summary, now),
        put: { summary, expect: 'new' },
      });
      return 'queued';
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}
