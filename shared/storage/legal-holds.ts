import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { queryAll } from './query-all';
import { memberHoldFromItem, type MemberLegalHold } from './legal-hold-items';
import { legalHoldFromMap, type LegalHold, type Recording } from './recording-items';
import { appliedUnlessConditionFails, commitParts, type TransactionPart } from './transactions';

/**
 * Legal holds (docs/governance.md). A recording's hold lives on the recording item, where every
 * delete reads it and whose `updated_at` every delete is conditioned on: a hold placed while a
 * delete is planned makes that delete's transaction fail and read again. Beside it, an entry per
 * held recording and a member's own hold share the organization's holds partition, so that one
 * Query answers "is anything of this member held?" without reading their recordings.
 */

export async function getMemberHold(db: TableContext, orgId: string, userId: string): Promise<MemberLegalHold | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.memberLegalHold(orgId, userId), ConsistentRead: true }),
  );
  const hold = Item && memberHoldFromItem(Item);
  return hold && !hold.released_at ? hold : undefined;
}

export async function putMemberHold(db: TableContext, hold: MemberLegalHold): Promise<void> {
  await db.client.send(
    new PutCommand({ TableName: db.tableName, Item: { ...keys.memberLegalHold(hold.org_id, hold.user_id), ...hold, ...changeStamp() } }),
  );
}

/** Releases a member's hold (one not in force is left as it is). */
export async function releaseMemberHoldItem(db: TableContext, orgId: string, userId: string, now: string): Promise<void> {
  await appliedUnlessConditionFails(
    db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.memberLegalHold(orgId, userId),
        UpdateExpression: 'SET released_at = :now, last_change = :stamp',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(released_at)',
        ExpressionAttributeValues: { ':now': now, ':stamp': changeStamp().last_change },
      }),
    ),
  );
}

/**
 * Places (hold) or releases (null) a recording's hold: the recording restamped, conditioned on
 * being as read, and its entry in the holds partition written or removed, in one transaction.
 * A WriteConflict naming 'recording' means it changed since it was read.
 */
export async function setRecordingHold(db: TableContext, recording: Recording, hold: LegalHold | null, now: string): Promise<void> {
  const entry = keys.recordingLegalHold(recording.org_id, recording.id);
  const parts: TransactionPart<'recording' | 'entry'>[] = [
    {
      name: 'recording',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.recording(recording.org_id, recording.id),
          UpdateExpression: hold
            ? 'SET legal_hold = :hold, updated_at = :now, last_change = :stamp'
            : 'REMOVE legal_hold SET updated_at = :now, last_change = :stamp',
          ConditionExpression: 'updated_at = :read',
          ExpressionAttributeValues: {
            ...(hold ? { ':hold': hold } : {}),
            ':now': now,
            ':read': recording.updated_at,
            ':stamp': changeStamp().last_change,
          },
        },
      },
    },
    {
      name: 'entry',
      write: hold
        ? {
            Put: {
              TableName: db.tableName,
              Item: { ...entry, org_id: recording.org_id, recording_id: recording.id, recorded_by: recording.recorded_by, ...hold },
            },
          }
        : { Delete: { TableName: db.tableName, Key: entry } },
    },
  ];
  await commitParts(db, parts);
}

/** The organization's holds: members' holds, and the recordings held (with their recorder). */
export async function listLegalHolds(
  db: TableContext,
  orgId: string,
): Promise<{ members: MemberLegalHold[]; recordings: (LegalHold & { recording_id: string; recorded_by: string })[] }> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.legalHolds(orgId).PK },
    ConsistentRead: true,
  });
  const members = items
    .filter((item) => String(item.SK).startsWith('HOLD#USER#'))
    .map(memberHoldFromItem)
    .filter((hold) => !hold.released_at);
  const recordings = items
    .filter((item) => String(item.SK).startsWith('HOLD#REC#'))
    .map((item) => {
      const fields = itemFields(item, 'recording legal hold entry');
      return {
        ...legalHoldFromMap(item, item, 'recording legal hold entry'),
        recording_id: fields.string('recording_id'),
        recorded_by: fields.string('recorded_by'),
      };
    });
  return { members, recordings };
}
