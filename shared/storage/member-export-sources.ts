import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, type RecordingBin } from './keys';
import { preferenceFromItem, type PreferenceRecord } from './member-settings-items';
import { queryAll } from './query-all';
import { recordingFromItem, type Recording } from './recording-items';
import { nestedItemFields } from './item-fields';

/**
 * What a member's export reads beyond the API's own readers, page by page so that an export
 * of any size holds one page in memory at a time: the member's recordings (GSI2), the
 * organization's other live recordings (GSI1: where their action items may be assigned to
 * them), their preferences (GSI1) and the languages a recording was translated into. Queries
 * only, never a Scan.
 */

/** Items per page: DynamoDB's 1 MB page is the other bound. */
const PAGE_SIZE = 100;

async function* pagesOf(db: TableContext, input: Omit<QueryCommandInput, 'TableName'>): AsyncGenerator<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({ ...input, TableName: db.tableName, Limit: PAGE_SIZE, ExclusiveStartKey: startKey }),
    );
    if (page.Items?.length) yield page.Items;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** The member's recordings in one bin, newest first, a page at a time (GSI2 holds the recordings themselves). */
export async function* recorderRecordingPages(
  db: TableContext,
  orgId: string,
  userId: string,
  bin: RecordingBin,
): AsyncGenerator<Recording[]> {
  const index = keys.recorderRecordingsIndex(orgId, userId, bin);
  for await (const items of pagesOf(db, {
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': index.GSI2PK },
    ScanIndexForward: false,
  })) {
    yield items.map(recordingFromItem);
  }
}

/** A live recording of someone else with summaries: where an action item may name the member. */
export interface SummarizedRecording {
  id: string;
  recorded_by: string;
  summaryIds: string[];
  /** Action items stored as a part of their own (a fixture's, from before summaries were written). */
  actionItemsPart: boolean;
}

/**
 * The organization's live recordings made by others that have summaries or action items, a
 * page at a time: only the id, recorder, summary ids and flags are read (a projection of GSI1). There is no index of
 * action items by assignee, so this walks the organization's live list (docs/governance.md).
 */
export async function* othersSummarizedRecordingPages(
  db: TableContext,
  orgId: string,
  userId: string,
): AsyncGenerator<SummarizedRecording[]> {
  for await (const items of pagesOf(db, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: 'recorded_by <> :user AND (size(summaries) > :none OR #related.action_items = :yes)',
    ProjectionExpression: 'PK, SK, id, recorded_by, summaries, #related',
    ExpressionAttributeNames: { '#related': 'related' },
    ExpressionAttributeValues: { ':pk': keys.recordingsIndex(orgId, 'LIVE').GSI1PK, ':user': userId, ':none': 0, ':yes': true },
    ScanIndexForward: false,
  })) {
    yield items.map((item) => ({
      id: String(item.id),
      recorded_by: String(item.recorded_by),
      summaryIds: (Array.isArray(item.summaries) ? item.summaries : []).map((entry) =>
        nestedItemFields(item, entry, 'summary digest').string('id'),
      ),
      actionItemsPart: (item.related as { action_items?: unknown } | undefined)?.action_items === true,
    }));
  }
}

/** Every preference of a member, newest first (the settings route pages them; an export holds them all). */
export async function* preferencePages(db: TableContext, orgId: string, userId: string): AsyncGenerator<PreferenceRecord[]> {
  for await (const items of pagesOf(db, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberPreferencesIndex(orgId, userId).GSI1PK },
    ScanIndexForward: false,
  })) {
    yield items.map(preferenceFromItem);
  }
}

/** The languages a recording has a translation in: the headers of its translations partition (`<lang>`; chunks are `<lang>#…`). */
export async function translationLanguages(db: TableContext, orgId: string, recordingId: string): Promise<string[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.recordingTranslation(orgId, recordingId, '').PK },
    ProjectionExpression: 'SK',
  });
  return items.map((item) => String(item.SK)).filter((sortKey) => !sortKey.includes('#'));
}
