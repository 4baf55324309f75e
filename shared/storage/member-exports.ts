import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { memberExportFromItem, memberExportItem, type MemberExport } from './member-export-items';
import { queryAll } from './query-all';

/**
 * A member's data exports (docs/governance.md, "Export"): one item per export under the
 * member's exports partition. Every write puts the whole item, stamped, so the stream gives
 * the event processor both images (shared/events/export-events.ts).
 */

/** Writes a new export; fails (ConditionalCheckFailed) if the id is taken, which a fresh random id never is. */
export async function insertMemberExport(db: TableContext, record: MemberExport): Promise<void> {
  await db.client.send(
    new PutCommand({
      TableName: db.tableName,
      Item: memberExportItem(record),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** One export of a member, or undefined. Strongly consistent: a GET right after the POST finds it. */
export async function getMemberExport(
  db: TableContext,
  orgId: string,
  userId: string,
  exportId: string,
): Promise<MemberExport | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.memberExport(orgId, userId, exportId), ConsistentRead: true }),
  );
  return Item && memberExportFromItem(Item);
}

/** Every export of a member (a handful: each goes a week after it finished), oldest first. */
export async function listMemberExports(db: TableContext, orgId: string, userId: string): Promise<MemberExport[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberExport(orgId, userId).PK },
    ConsistentRead: true,
  });
  return items.map(memberExportFromItem);
}

/**
 * Replaces an export with its next state, if it is still as it was read (`updated_at` and
 * status unchanged): false when another writer moved it first (a redelivered event racing
 * the first delivery), so the caller reads it again rather than overwriting a newer state.
 */
export async function replaceMemberExport(db: TableContext, previous: MemberExport, next: MemberExport): Promise<boolean> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: memberExportItem(next),
        ConditionExpression: '#status = :status AND updated_at = :updated',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': previous.status, ':updated': previous.updated_at },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Deletes one export item; nothing there is a success. */
export async function deleteMemberExportItem(db: TableContext, orgId: string, userId: string, exportId: string): Promise<void> {
  await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.memberExport(orgId, userId, exportId) }));
}
