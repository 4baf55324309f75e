import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ErasureCountName } from '../schemas/erasures';
import type { TableContext } from './dynamo';
import {
  erasureFromItem,
  erasureGuardItem,
  erasureItem,
  erasureLogEntryFromItem,
  erasureLogItem,
  type ErasureLogEntry,
  type ErasureRecord,
} from './erasure-items';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { queryAll } from './query-all';
import { appliedUnlessConditionFails, commitParts } from './transactions';

/**
 * An erasure's life in the table: created with its guard (one running erasure per member),
 * moved step by step by the job (each move conditioned on the step read, so two deliveries of
 * the job never both move it), completed with its log line and without its guard.
 */

export type ErasureStartPart = 'guard' | 'erasure';

/** Creates a queued erasure and its guard; a WriteConflict at `guard` means one already runs for the member. */
export async function insertErasure(db: TableContext, erasure: ErasureRecord): Promise<void> {
  await commitParts<ErasureStartPart>(db, [
    {
      name: 'guard',
      write: { Put: { TableName: db.tableName, Item: erasureGuardItem(erasure), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
    {
      name: 'erasure',
      write: { Put: { TableName: db.tableName, Item: erasureItem(erasure), ConditionExpression: 'attribute_not_exists(PK)' } },
    },
  ]);
}

export async function getErasure(
  db: TableContext,
  orgId: string,
  erasureId: string,
  { consistent = false } = {},
): Promise<ErasureRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.erasure(orgId, erasureId), ConsistentRead: consistent }),
  );
  return Item ? erasureFromItem(Item) : undefined;
}

/** The id of the member's running erasure, if one runs. */
export async function runningErasureId(db: TableContext, orgId: string, userId: string): Promise<string | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.erasureGuard(orgId, userId), ConsistentRead: true }),
  );
  return Item ? itemFields(Item, 'erasure guard').string('erasure_id') : undefined;
}

/**
 * Records what a step found to erase, the first time only (`if_not_exists`): a step resumed
 * after a crash finds less left, and must not count less. Answers the count kept.
 */
export async function recordErasureCount(
  db: TableContext,
  erasure: Pick<ErasureRecord, 'org_id' | 'id'>,
  name: ErasureCountName,
  count: number,
  now: string,
): Promise<number> {
  const { Attributes } = await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.erasure(erasure.org_id, erasure.id),
      UpdateExpression: 'SET counts.#name = if_not_exists(counts.#name, :count), updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#name': name },
      ExpressionAttributeValues: { ':count': count, ':now': now },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const stored = (Attributes?.counts as Record<string, unknown> | undefined)?.[name];
  return typeof stored === 'number' ? stored : count;
}

/** Notes the page of recordings about to be deleted (replacing the previous page's). */
export async function markErasurePage(
  db: TableContext,
  erasure: Pick<ErasureRecord, 'org_id' | 'id'>,
  recordingIds: readonly string[],
  now: string,
): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.erasure(erasure.org_id, erasure.id),
      UpdateExpression: 'SET in_progress = :ids, #status = :running, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':ids': recordingIds, ':running': 'running', ':now': now },
    }),
  );
}

/** Moves the erasure from one step to the next, only while it is at `from` (a duplicate delivery moves nothing). */
export async function moveErasureStep(
  db: TableContext,
  erasure: Pick<ErasureRecord, 'org_id' | 'id'>,
  from: string,
  to: string,
  now: string,
): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.erasure(erasure.org_id, erasure.id),
      UpdateExpression: 'SET #step = :to, #status = :running, updated_at = :now',
      ConditionExpression: '#step = :from',
      ExpressionAttributeNames: { '#step': 'step', '#status': 'status' },
      ExpressionAttributeValues: { ':from': from, ':to': to, ':running': 'running', ':now': now },
    }),
  );
}

/**
 * Completes an erasure in one transaction: the erasure `completed` (its counts as recorded),
 * its guard gone, and its line in the erasure log. Conditioned on the last step, so a second
 * delivery finds it done. The completion's stream record is the `user.erased` event.
 */
export async function completeErasure(db: TableContext, erasure: ErasureRecord, lastStep: string, now: string): Promise<void> {
  const entry: ErasureLogEntry = {
    org_id: erasure.org_id,
    user_id: erasure.user_id,
    erasure_id: erasure.id,
    requested_by: erasure.requested_by,
    completed_at: now,
  };
  await commitParts<'erasure' | 'guard' | 'log'>(db, [
    {
      name: 'erasure',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.erasure(erasure.org_id, erasure.id),
          UpdateExpression: 'SET #status = :completed, #step = :none, completed_at = :now, updated_at = :now, in_progress = :nothing',
          ConditionExpression: '#step = :last',
          ExpressionAttributeNames: { '#status': 'status', '#step': 'step' },
          ExpressionAttributeValues: { ':completed': 'completed', ':none': null, ':now': now, ':last': lastStep, ':nothing': [] },
        },
      },
    },
    { name: 'guard', write: guardRemoval(db, erasure) },
    { name: 'log', write: { Put: { TableName: db.tableName, Item: erasureLogItem(entry) } } },
  ]);
}

/** Marks an erasure failed for good (its job's last delivery failed) and frees its member for a new request. */
export async function failErasure(db: TableContext, erasure: ErasureRecord, error: string, now: string): Promise<void> {
  await commitParts<'erasure' | 'guard'>(db, [
    {
      name: 'erasure',
      write: {
        Update: {
          TableName: db.tableName,
          Key: keys.erasure(erasure.org_id, erasure.id),
          UpdateExpression: 'SET #status = :failed, #error = :error, updated_at = :now',
          ConditionExpression: '#status <> :completed',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: { ':failed': 'failed', ':completed': 'completed', ':error': error, ':now': now },
        },
      },
    },
    { name: 'guard', write: guardRemoval(db, erasure) },
  ]);
}

/** The guard goes only while it names this erasure (never a later one's). */
function guardRemoval(db: TableContext, erasure: ErasureRecord) {
  return {
    Delete: {
      TableName: db.tableName,
      Key: keys.erasureGuard(erasure.org_id, erasure.user_id),
      ConditionExpression: 'attribute_not_exists(PK) OR erasure_id = :id',
      ExpressionAttributeValues: { ':id': erasure.id },
    },
  };
}

/** The erasure log from `since` on (ISO time, inclusive), oldest first: one Query of its partition. */
export async function readErasureLog(db: TableContext, since?: string): Promise<ErasureLogEntry[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: since ? 'PK = :pk AND SK >= :since' : 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.erasureLogPartition, ...(since ? { ':since': since } : {}) },
  });
  return items.map(erasureLogEntryFromItem);
}

/** Stores an erasure as it is, unless one with its id exists (fixtures and sample data: an erasure already completed). */
export async function putErasureOnce(db: TableContext, erasure: ErasureRecord): Promise<void> {
  await appliedUnlessConditionFails(
    db.client.send(
      new PutCommand({ TableName: db.tableName, Item: erasureItem(erasure), ConditionExpression: 'attribute_not_exists(PK)' }),
    ),
  );
}
