import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
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

/**
 * The ids of every recording of an organization, live or in the trash, page by page: for the
 * operator's reindex, never a request path. It reads the recordings' keys only, but DynamoDB
 * bills the whole items of the organization's recording range it passes.
 */
export async function* recordingIdsOf(db: TableContext, orgId: string): AsyncGenerator<string[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rec)',
        ExpressionAttributeValues: { ':pk': keys.organization(orgId).PK, ':rec': 'REC#' },
        ProjectionExpression: 'SK',
        ExclusiveStartKey: startKey,
      }),
    );
    yield (page.Items ?? [])
      .map((item) => String(item.SK))
      .filter((sk) => /^REC#[^#]+$/.test(sk))
      .map((sk) => sk.slice('REC#'.length));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/**
 * The ids of every organization, page by page: for the operator's reindex of all organizations
 * and rebuild of the index, never a request path. A Scan (the table keeps no list of its
 * organizations), which DynamoDB bills for the whole table.
 */
export async function* organizationIdsOf(db: TableContext): AsyncGenerator<string[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: 'SK = :org',
        ExpressionAttributeValues: { ':org': keys.organization('').SK },
        ProjectionExpression: 'PK',
        ExclusiveStartKey: startKey,
      }),
    );
    yield (page.Items ?? []).map((item) => String(item.PK).slice('ORG#'.length));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
