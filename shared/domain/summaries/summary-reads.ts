import type { Caller } from '../../auth/policy';
import { ConflictError, NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { getSummary } from '../../storage/summaries';
import { recordingNotFound } from '../recordings/get-recording';
import { featuredDigest } from './summary-changes';

export interface SummaryReadDeps {
  db: TableContext;
  now: () => Date;
}

export const summaryNotFound = (summaryId: string) =>
  new NotFoundError('SUMMARY_NOT_FOUND', `Summary ${summaryId} does not exist for this recording.`);
export const CONCURRENT = () =>
  new ConflictError('CONCURRENT_UPDATE', 'The recording kept changing while its summary was being changed; try again.');

/** A live recording the caller may reach: 404 RECORDING_NOT_FOUND otherwise (another member's, for a personal key). */
export async function reachableRecording(db: TableContext, caller: Caller, recordingId: string, consistent = false): Promise<Recording> {
  const recording = await getRecording(db, caller.orgId, recordingId, { consistent });
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  if (caller.kind === 'user_key' && recording.recorded_by !== caller.userId) throw recordingNotFound(recordingId);
  return recording;
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
