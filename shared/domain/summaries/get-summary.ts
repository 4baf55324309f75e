import type { Caller } from '../../auth/policy';
import * as summaryStore from '../../storage/summaries';
import type { SummaryRecord } from '../../storage/summary-items';
import { SummaryReadDeps, reachableRecording, summaryNotFound } from './summary-reads';

/** Get summary: two GetItems (the recording, then the summary). */
export async function getSummary(deps: SummaryReadDeps, caller: Caller, recordingId: string, summaryId: string): Promise<SummaryRecord> {
  const recording = await reachableRecording(deps.db, caller, recordingId);
  if (!recording.summaries?.some((digest) => digest.id === summaryId)) throw summaryNotFound(summaryId);
  const summary = await summaryStore.getSummary(deps.db, caller.orgId, recordingId, summaryId);
  if (!summary) throw summaryNotFound(summaryId);
  return summary;
}
