import type { Caller } from '../../auth/policy';
import { listSummaryItems } from '../../storage/summaries';
import type { SummaryRecord } from '../../storage/summary-items';
import { SummaryReadDeps, reachableRecording } from './summary-reads';

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
