import type { TableContext } from './dynamo';
import { keys } from './keys';
import { queryAll } from './query-all';
import { recordingFromItem, type Recording } from './recording-items';
import type { ActionItem, Summary, TranscriptSegment } from './recording-part-items';
import { partsFromItems } from './recordings';
import { summaryRecordFromItem, type SummaryRecord } from './summary-items';

/** Everything of a recording that search holds, as one query of its key range reads it. */
export interface SearchableRecording {
  recording: Recording;
  /** The transcript's speaker turns (the header's chunk set); none without a completed transcript. */
  segments: TranscriptSegment[];
  /** The summaries the pipeline wrote, any status: only completed ones are searchable. */
  summaries: SummaryRecord[];
  /** A summary and action items a fixture loaded (no summary id). */
  loadedSummary?: Summary;
  loadedActionItems?: ActionItem[];
}

/**
 * A recording with its transcript and summaries, or undefined when it no longer exists: one
 * strongly consistent Query over its key range, so the indexer reads what the change that
 * woke it committed.
 */
export async function readSearchableRecording(
  db: TableContext,
  orgId: string,
  recordingId: string,
): Promise<SearchableRecording | undefined> {
  const base = keys.recording(orgId, recordingId);
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': base.PK, ':from': base.SK, ':to': `${base.SK}#~` },
    ConsistentRead: true,
  });
  const recordingRow = items.find((item) => item.SK === base.SK);
  if (!recordingRow) return undefined;
  const parts = partsFromItems(items, base.SK);
  const summaries = items.filter((item) => String(item.SK).startsWith(`${base.SK}#SUMMARY#`)).map(summaryRecordFromItem);
  return {
    recording: recordingFromItem(recordingRow),
    segments: parts.transcript?.segments ?? [],
    summaries,
    loadedSummary: parts.summary,
    loadedActionItems: parts.action_items,
  };
}
