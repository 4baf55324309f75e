import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { queryAll } from './query-all';
import type { Recording } from './recording-items';
import { summaryItem, summaryPart, summaryRecordFromItem, type SummaryRecord } from './summary-items';
import { recordingPutAsRead } from './recording-writes';
import { commitParts, type TransactionPart } from './transactions';

/**
 * A recording's summaries (docs/summaries.md): the recording item is the aggregate root, so
 * every transition writes the recording (its digest, restamped `updated_at`) and the summary's
 * item in one transaction, conditioned on the recording as read. The domain plans; this commits.
 */

/** One transition of a recording's summaries, planned by the domain. */
export interface SummaryTransition {
  /** The recording as read: the write relies on its `updated_at` and its bin (live) still being these. */
  before: Recording;
  /** The recording to store (its digest changed, `updated_at` restamped). */
  after: Recording;
  /** The summary item to write: `new` only while absent (a redelivered event adds nothing), else only while it is as read. */
  put?: { summary: SummaryRecord; expect: 'new' | { updated_at: string } };
  /** The summary item to delete (while it exists). */
  remove?: string;
}

export type SummaryPart = 'recording' | 'summary';

export async function commitSummaryTransition(db: TableContext, transition: SummaryTransition): Promise<void> {
  const { before, after } = transition;
  const parts: TransactionPart<SummaryPart>[] = [{ name: 'recording', write: recordingPutAsRead(db, before, after, 'LIVE') }];
  if (transition.put) {
    const { summary, expect } = transition.put;
    parts.push({
      name: 'summary',
      write: {
        Put: {
          TableName: db.tableName,
          Item: summaryItem(summary),
          ...(expect === 'new'
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : {
                ConditionExpression: 'attribute_exists(PK) AND updated_at = :summaryRead',
                ExpressionAttributeValues: { ':summaryRead': expect.updated_at },
              }),
        },
      },
    });
  }
  if (transition.remove !== undefined) {
    parts.push({
      name: 'summary',
      write: {
        Delete: {
          TableName: db.tableName,
          Key: keys.recordingPart(after.org_id, after.id, summaryPart(transition.remove)),
          ConditionExpression: 'attribute_exists(PK)',
        },
      },
    });
  }
  await commitParts(db, parts);
}

/** One summary's item, or undefined. */
export async function getSummary(
  db: TableContext,
  orgId: string,
  recordingId: string,
  summaryId: string,
  options: { consistent?: boolean } = {},
): Promise<SummaryRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({
      TableName: db.tableName,
      Key: keys.recordingPart(orgId, recordingId, summaryPart(summaryId)),
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return Item ? summaryRecordFromItem(Item) : undefined;
}

/** Every summary item of a recording (at most 20, each bounded: docs/summaries.md), in id order: one Query. */
export async function listSummaryItems(db: TableContext, orgId: string, recordingId: string): Promise<SummaryRecord[]> {
  const base = keys.recordingPart(orgId, recordingId, summaryPart(''));
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': base.PK, ':prefix': base.SK },
  });
  return items.map(summaryRecordFromItem);
}
