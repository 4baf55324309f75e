import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { markDerivedIndexComplete } from './organizations';
import type { RetentionPolicy } from './retention-policy-items';
import { queryAll } from './query-all';
import { retentionDayOf, recordingFromItem } from './recording-items';
import { commitParts } from './transactions';

/**
 * Retention (docs/governance.md): the organization's policy on its item, the registry of the
 * organizations that have one (the daily sweep's one partition), and the index of live
 * recordings by the day their age counts from (GSI3, keys only), read from its oldest day up to
 * the policy's cutoff. No Scan anywhere: a sweep reads what expired and the registry.
 */

/** Sets (or, with null days, lifts) an organization's policy and its registry entry, in one transaction. */
export async function setRetentionPolicy(db: TableContext, orgId: string, policy: RetentionPolicy): Promise<void> {
  const { recordings_days: days, ...rest } = policy;
  const stored = days === null ? rest : policy;
  const registry = keys.retentionPolicy(orgId);
  await commitParts(db, [
    {
      name: 'organization',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.organization(orgId),
          UpdateExpression: 'SET retention = :policy, updated_at = :now, last_change = :stamp',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':policy': stored, ':now': policy.updated_at, ':stamp': changeStamp().last_change },
        },
      },
    },
    {
      name: 'registry',
      write:
        days === null
          ? { Delete: { TableName: db.tableName, Key: registry } }
          : { Put: { TableName: db.tableName, Item: { ...registry, org_id: orgId, recordings_days: days } } },
    },
  ]);
}

/** Every organization with a policy: one Query of the registry (paged as it grows). */
export async function listRetentionPolicies(db: TableContext): Promise<{ org_id: string; recordings_days: number }[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.retentionPolicy().PK },
  });
  return items.map((item) => ({ org_id: String(item.org_id), recordings_days: Number(item.recordings_days) }));
}

/**
 * The live recordings whose retention day is before `beforeDay` (YYYY-MM-DD), oldest first, a
 * page at a time: keys only, so about 100 bytes a recording, and only the expired ones.
 */
export async function* expiredRecordingIds(db: TableContext, orgId: string, beforeDay: string, pageSize = 200): AsyncGenerator<string[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK < :before',
        ExpressionAttributeValues: { ':pk': keys.recordingRetentionIndex(orgId).GSI3PK, ':before': beforeDay },
        Limit: pageSize,
        ExclusiveStartKey: start,
      }),
    );
    const ids = (page.Items ?? []).map((item) => String(item.SK).slice('REC#'.length));
    if (ids.length) yield ids;
    start = page.LastEvaluatedKey;
  } while (start);
}

/**
 * Gives every live recording of an organization created before the index existed its retention
 * index keys (from the live list, GSI1), then marks the index complete. Each write is conditioned
 * on the recording being unchanged and live, so a concurrent change (which writes the keys
 * itself) is never undone. Answers how many it wrote.
 */
export async function buildRetentionIndex(db: TableContext, orgId: string, now: string): Promise<number> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.recordingsIndex(orgId, 'LIVE').GSI1PK },
  });
  let written = 0;
  for (const item of items) {
    if (item.GSI3PK !== undefined) continue;
    const recording = recordingFromItem(item);
    const index = keys.recordingRetentionIndex(orgId, retentionDayOf(recording), recording.id);
    try {
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: keys.recording(orgId, recording.id),
          UpdateExpression: 'SET GSI3PK = :pk, GSI3SK = :sk',
          ConditionExpression: 'updated_at = :read AND attribute_not_exists(deleted_at)',
          ExpressionAttributeValues: { ':pk': index.GSI3PK, ':sk': index.GSI3SK, ':read': recording.updated_at },
        }),
      );
      written++;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
  await markDerivedIndexComplete(db, orgId, 'retention_index_at', now);
  return written;
}
