import type { Caller } from '../../auth/policy';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { commitSummaryTransition, getSummary, listSummaryItems } from '../../storage/summaries';
import type { SummaryRecord } from '../../storage/summary-items';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { recordingNotFound } from '../recordings/read-recording';
import { featuredDigest, withActionItem, withDigest, withoutDigest } from './summary-plan';

export interface SummaryReadDeps {
  db: TableContext;
  now: () => Date;
}

const summaryNotFound = (summaryId: string) =>
  new NotFoundError('SUMMARY_NOT_FOUND', `Summary ${summaryId} does not exist for this recording.`);
const CONCURRENT = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing while its summary was being changed; try again.');

/** A live recording the caller may reach: 404 RECORDING_NOT_FOUND otherwise (another member's, for a personal key). */
async function reachableRecording(db: TableContext, caller: Caller, recordingId: string, consistent = false): Promise<Recording> {
  const recording = await getRecording(db, caller.orgId, recordingId, { consistent });
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
  return recording;
}

/**
 * List summaries (both hosts): the recording's summaries, newest first. Two reads: the
 * recording (GetItem), then its summaries' items (one Query, skipped when its digest lists none).
 */
export async function listSummaries(deps: SummaryReadDeps, caller: Caller, recordingId: string): Promise<SummaryRecord[]> {
  const recording = await reachableRecording(deps.db, caller, recordingId);
  if (!recording.summaries?.length) return [];
  const summaries = await listSummaryItems(deps.db, caller.orgId, recordingId);
  return summaries.sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));
}

/** Get summary: two GetItems (the recording, then the summary). */
export async function getRecordingSummary(
  deps: SummaryReadDeps,
  caller: Caller,
  recordingId: string,
  summaryId: string,
): Promise<SummaryRecord> {
  const recording = await reachableRecording(deps.db, caller, recordingId);
  if (!recording.summaries?.some((digest) => digest.id === summaryId)) throw summaryNotFound(summaryId);
  const summary = await getSummary(deps.db, caller.orgId, recordingId, summaryId);
  if (!summary) throw summaryNotFound(summaryId);
  return summary;
}

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

/**
 * The recording's latest completed summary (the translation's dependency: it translates that
 * one), or undefined: one GetItem of the recording, one of the summary chosen from its digest.
 */
export async function latestSummary(
  db: TableContext,
  orgId: string,
  recordingId: string,
): Promise<{ id: string; markdown: string } | undefined> {
  const recording = await getRecording(db, orgId, recordingId);
  const latest = recording && !recording.deleted_at ? featuredDigest(recording, undefined) : undefined;
  const summary = latest && (await getSummary(db, orgId, recordingId, latest.id));
  return summary ? { id: summary.id, markdown: summary.markdown } : undefined;
}
