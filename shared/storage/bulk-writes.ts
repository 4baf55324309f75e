import { BatchGetCommand, BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { membershipFromItem, membershipItem, type Membership } from './membership-items';
import { organizationFromItem, type StoredOrganization } from './organizations';
import { partItems, recordingItem, tagLinkItem, type Recording, type RecordingParts } from './recording-items';
import { userEmailGuardItem, userFromItem, userItem, type User } from './users';
import { sendUntilProcessed } from './write-retries';

/**
 * Bulk reads and writes for loading many items at once (fixtures): BatchGetItem of 100 keys
 * and BatchWriteItem of 25 items, a few requests in flight at a time, each retried until
 * DynamoDB processed all of it. BatchWriteItem has no conditions: callers write only items
 * they have just read to be absent (see seedFixture for what that means for concurrent writers).
 */

/** Requests in flight at once: enough to keep DynamoDB busy without a burst of throttling. */
export const BULK_CONCURRENCY = 12;
const GET_BATCH = 100;
const WRITE_BATCH = 25;

/** Runs `task` on every item, at most `concurrency` at a time; the first failure rejects (the others in flight finish). */
export async function inPool<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The items stored at these keys (absent ones left out), in BatchGetItem requests of 100, a few at a time. */
export async function batchGetItems(db: TableContext, itemKeys: Record<string, string>[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  await inPool(chunked(itemKeys, GET_BATCH), BULK_CONCURRENCY, (chunk) =>
    sendUntilProcessed(chunk, async (pending) => {
      const result = await db.client.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: pending } } }));
      found.push(...(result.Responses?.[db.tableName] ?? []));
      return (result.UnprocessedKeys?.[db.tableName]?.Keys ?? []) as Record<string, string>[];
    }),
  );
  return found;
}

/**
 * Puts every item whole, in BatchWriteItem requests of 25, a few at a time; what DynamoDB
 * leaves unprocessed (throttling) is sent again after a backoff pause. No two items may
 * share a key (DynamoDB refuses such a request).
 */
export async function batchPutItems(db: TableContext, items: Record<string, unknown>[]): Promise<void> {
  await inPool(chunked(items, WRITE_BATCH), BULK_CONCURRENCY, (chunk) =>
    sendUntilProcessed(
      chunk.map((Item) => ({ PutRequest: { Item } })),
      async (pending) => {
        const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
        return (UnprocessedItems?.[db.tableName] ?? []).flatMap((request) => (request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : []));
      },
    ),
  );
}

const keyOf = (key: { PK: string; SK: string }) => `${key.PK}|${key.SK}`;
const keyOfItem = (item: Record<string, unknown>) => `${String(item.PK)}|${String(item.SK)}`;

/** The stored users of these ids, by id. */
export async function getUsersById(db: TableContext, userIds: string[]): Promise<Map<string, User>> {
  const items = await batchGetItems(db, [...new Set(userIds)].map((id) => keys.user(id)));
  return new Map(items.map((item) => [String(item.user_id), userFromItem(item)]));
}

/** The user each of these emails (lower-cased) is registered for, by email; unclaimed emails are left out. */
export async function getEmailOwners(db: TableContext, emails: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  const byKey = new Map(wanted.map((email) => [keyOf(keys.userEmail(email)), email]));
  const items = await batchGetItems(db, wanted.map((email) => keys.userEmail(email)));
  return new Map(items.map((item) => [byKey.get(keyOfItem(item)) ?? '', String(item.user_id)]));
}

/** The stored organizations of these ids, by id. */
export async function getOrganizationsById(db: TableContext, orgIds: string[]): Promise<Map<string, StoredOrganization>> {
  const items = await batchGetItems(db, [...new Set(orgIds)].map((id) => keys.organization(id)));
  return new Map(items.map((item) => [String(item.org_id), organizationFromItem(item)]));
}

/** A membership's place: `${orgId}|${userId}`. */
export const membershipRef = (orgId: string, userId: string) => `${orgId}|${userId}`;

/** The stored memberships of these (org, user) pairs, by membershipRef. */
export async function getMembershipsByRef(db: TableContext, pairs: { orgId: string; userId: string }[]): Promise<Map<string, Membership>> {
  const refs = new Map(pairs.map((pair) => [membershipRef(pair.orgId, pair.userId), pair]));
  const items = await batchGetItems(db, [...refs.values()].map((pair) => keys.membership(pair.orgId, pair.userId)));
  return new Map(items.map((item) => [membershipRef(String(item.org_id), String(item.user_id)), membershipFromItem(item)]));
}

/** Which of these recordings are stored, as `${orgId}|${recordingId}`. */
export async function storedRecordingRefs(db: TableContext, recordings: { orgId: string; id: string }[]): Promise<Set<string>> {
  const byKey = new Map(recordings.map((r) => [keyOf(keys.recording(r.orgId, r.id)), `${r.orgId}|${r.id}`]));
  const items = await batchGetItems(db, [...byKey.keys()].map((key) => {
    const [PK, SK] = key.split('|');
    return { PK, SK };
  }));
  return new Set(items.map((item) => byKey.get(keyOfItem(item)) ?? ''));
}

/** Stores new users with their email guards (the caller read both absent, and no two share an id or email). */
export async function putNewUsers(db: TableContext, users: User[]): Promise<void> {
  await batchPutItems(db, users.flatMap((user) => [userItem(user), userEmailGuardItem(user.email, user.user_id)]));
}

/** Stores new memberships (read absent); the organizations' counts are the caller's (addOrganizationCounts). */
export async function putNewMemberships(db: TableContext, memberships: Membership[]): Promise<void> {
  await batchPutItems(db, memberships.map(membershipItem));
}

/**
 * Stores new recordings (read absent) with their related items and, for a live one, a tag
 * link per tag: the items the API's create transaction writes, without its counters
 * (addOrganizationCounts and setRecorderCounts).
 */
export async function putNewRecordings(db: TableContext, recordings: { recording: Recording; parts: RecordingParts }[]): Promise<void> {
  await batchPutItems(
    db,
    recordings.flatMap(({ recording, parts }) => [
      recordingItem(recording),
      ...partItems(recording.org_id, recording.id, parts),
      ...(recording.deleted_at ? [] : recording.tags.map((tagId) => tagLinkItem(recording, tagId))),
    ]),
  );
}

/**
 * Moves an organization's counters by what a bulk load added, in one update (ADD, so a
 * concurrent change of the same counter is not lost); the organization must exist.
 */
export async function addOrganizationCounts(
  db: TableContext,
  orgId: string,
  move: { activeMembers?: number; live?: number; trash?: number },
  now?: string,
): Promise<void> {
  const counters = [
    ['active_member_count', move.activeMembers ?? 0],
    ['recording_count', move.live ?? 0],
    ['trash_count', move.trash ?? 0],
  ].filter(([, delta]) => delta !== 0) as [string, number][];
  if (!counters.length) return;
  const values: Record<string, unknown> = Object.fromEntries(counters.map(([name, delta]) => [`:${name}`, delta]));
  if (now) values[':now'] = now;
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: `ADD ${counters.map(([name]) => `${name} :${name}`).join(', ')}${now ? ' SET updated_at = :now' : ''}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Sets a recorder's live recording count and newest recording's created_at, only if the
 * count is still the one read (ConditionalCheckFailed otherwise), like the API's recording
 * transaction does per recording.
 */
export async function setRecorderCounts(db: TableContext, orgId: string, counts: { userId: string; read: number; next: number; latestRecordingAt: string | null }): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.membership(orgId, counts.userId),
      UpdateExpression: 'SET recording_count = :next, latest_recording_at = :latest',
      ConditionExpression: 'recording_count = :current',
      ExpressionAttributeValues: { ':next': counts.next, ':latest': counts.latestRecordingAt, ':current': counts.read },
    }),
  );
}
