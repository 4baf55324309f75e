import type { Caller } from '../../auth/policy';
import { commitSummaryTransition } from '../../storage/summaries';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { withoutDigest } from './summary-changes';
import { SummaryReadDeps, reachableRecording, summaryNotFound, CONCURRENT } from './summary-reads';

/**
 * Delete summary: its item and its digest entry go in one transaction. A summary still being
 * written is deleted too: the consumer finds it gone and discards its result.
 */
export async function deleteSummary(deps: SummaryReadDeps, caller: Caller, recordingId: string, summaryId: string): Promise<void> {
  await retryOnWriteConflict(
    async () => {
      const recording = await reachableRecording(deps.db, caller, recordingId, true);
      if (!recording.summaries?.some((digest) => digest.id === summaryId)) throw summaryNotFound(summaryId);
      await commitSummaryTransition(deps.db, {
        before: recording,
        after: withoutDigest(recording, summaryId, deps.now()),
        remove: summaryId,
      });
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}
