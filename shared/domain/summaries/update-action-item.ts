import type { Caller } from '../../auth/policy';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import { getSummary, commitSummaryTransition } from '../../storage/summaries';
import type { SummaryRecord } from '../../storage/summary-items';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { withActionItem, withDigest } from './summary-changes';
import { SummaryReadDeps, reachableRecording, summaryNotFound, CONCURRENT } from './summary-reads';

/**
 * Update action item: marks one action item done or not. Members change their own
 * recordings' items, admins and owners (and organization keys) anyone's: a member's ID token
 * on another member's recording is 403 INSUFFICIENT_ROLE (the recording is visible to them,
 * so a 404 would lie; docs/decisions.md).
 */
export async function updateActionItem(
  deps: SummaryReadDeps,
  caller: Caller,
  recordingId: string,
  summaryId: string,
  itemId: string,
  completed: boolean,
): Promise<SummaryRecord> {
  return retryOnWriteConflict(
    async () => {
      const recording = await reachableRecording(deps.db, caller, recordingId, true);
      if (caller.kind === 'id_token' && caller.role === 'member' && recording.recorded_by !== caller.userId) {
        throw new ForbiddenError(
          'INSUFFICIENT_ROLE',
          "Members change the action items of their own recordings only; an admin changes anyone's.",
        );
      }
      if (!recording.summaries?.some((digest) => digest.id === summaryId)) throw summaryNotFound(summaryId);
      const summary = await getSummary(deps.db, caller.orgId, recordingId, summaryId, { consistent: true });
      if (!summary) throw summaryNotFound(summaryId);
      if (!summary.action_items.some((item) => item.id === itemId))
        throw new NotFoundError('ACTION_ITEM_NOT_FOUND', `Action item ${itemId} does not exist in summary ${summaryId}.`);
      const now = deps.now();
      const next = withActionItem(summary, now, itemId, completed);
      await commitSummaryTransition(deps.db, {
        before: recording,
        after: withDigest(recording, next, now),
        put: { summary: next, expect: { updated_at: summary.updated_at } },
      });
      return next;
    },
    { attempts: 10, exhausted: CONCURRENT },
  );
}
