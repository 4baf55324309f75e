/**
 * Bulk writes for the fixture loader: many new entities per transaction, each guarded by
 * its own condition, and a recount that sets an organization's counters from its items.
 * Nothing here writes blindly: a new item is put only where none is (attribute_not_exists),
 * and a counter is set only while it still holds the value read before counting.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { queryAll } from './query-all';
import type { Membership } from './membership-items';
import { putMembershipPart } from './membership-writes';
import { recordingItem, tagLinkItems, type Recording } from './recording-items';
import { partItems, type RecordingParts } from './recording-part-items';
import { cancellationCodes, isConditionFailure, transact, type TransactItem } from './transactions';
import { trashTimerItem } from './trash-timers';

/**
 * The writes that create a membership in bulk: the membership only where none is, while its
 * user exists. With `userCreatedAlongside`, for a transaction that also puts the user (only
 * where none is), the user's put shows it and no check is added (DynamoDB refuses a check and
 * a put of one item in one transaction). No counter moves (the seed recounts).
 */
export function membershipCreationWrites(db: TableContext, membership: Membership, { userCreatedAlongside = false } = {}): TransactItem[] {
  const put = putMembershipPart(db, membership, 'absent');
  if (userCreatedAlongside) return [put];
  return [
    put,
    { ConditionCheck: { TableName: db.tableName, Key: keys.user(membership.user_id), ConditionExpression: 'attribute_exists(PK)' } },
  ];
}

/**
 * The writes that create a recording in bulk: the recording only where none is, its parts and
 * its tag links, and for one in the trash with a purge date its trash timer, only where none
 * is. No counter moves (the seed recounts).
 */
export function recordingCreationWrites(db: TableContext, recording: Recording, parts: RecordingParts): TransactItem[] {
  const put = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: db.tableName, Item } });
  const { deleted_at: deletedAt, purge_at: purgeAt } = recording;
  const timer =
    deletedAt && purgeAt
      ? trashTimerItem({ org_id: recording.org_id, recording_id: recording.id, deleted_at: deletedAt, purge_at: purgeAt })
      : undefined;
  return [
    { Put: { TableName: db.tableName, Item: recordingItem(recording), ConditionExpression: 'attribute_not_exists(PK)' } },
    ...partItems(recording.org_id, recording.id, parts).map(put),
    ...tagLinkItems(recording).map(put),
    ...(timer ? [{ Put: { TableName: db.tableName, Item: timer, ConditionExpression: 'attribute_not_exists(PK)' } }] : []),
  ];
}

/** At most this many items in one TransactWriteItems. */
const TRANSACTION_ITEMS = 100;
/** Transactions in flight at once: DynamoDB Local writes about 3× more items per second at 8 than at 1. */
const CONCURRENCY = 8;

/** One entity to create: the guarded writes that create it whole. */
export interface BulkCreation<T> {
  entry: T;
  writes: TransactItem[];
}

/** The item a transaction's write or check concerns, as `table|PK|SK`. */
function itemOf(write: TransactItem): string {
  const target = write.Put
    ? { TableName: write.Put.TableName, key: write.Put.Item }
    : (write.Update ?? write.Delete ?? write.ConditionCheck);
  if (!target) throw new Error('A transaction item names no operation');
  const key = 'key' in target ? target.key : target.Key;
  return `${target.TableName}|${String(key?.PK)}|${String(key?.SK)}`;
}

/**
 * Packs creations into transactions of at most 100 items in which no item is touched twice:
 * DynamoDB refuses a transaction with two operations on one item, and entries of a fixture
 * share items (a user's two memberships both check the user). Each creation goes into the
 * first transaction with room for it and none of its items, so transactions stay full and
 * fixture order is kept as far as it can be.
 */
function packWithoutSharedItems<T>(creations: BulkCreation<T>[]): BulkCreation<T>[][] {
  const groups: { creations: BulkCreation<T>[]; items: Set<string>; size: number }[] = [];
  let firstWithRoom = 0;
  for (const creation of creations) {
    if (creation.writes.length > TRANSACTION_ITEMS) throw new Error('A bulk creation needs more than one transaction');
    const items = creation.writes.map(itemOf);
    if (new Set(items).size !== items.length) throw new Error('A bulk creation touches one item twice');
    let group = groups
      .slice(firstWithRoom)
      .find((candidate) => candidate.size + items.length <= TRANSACTION_ITEMS && !items.some((item) => candidate.items.has(item)));
    if (!group) groups.push((group = { creations: [], items: new Set(), size: 0 }));
    group.creations.push(creation);
    items.forEach((item) => group.items.add(item));
    group.size += items.length;
    // Groups before the first with room for a one-item creation are full for good: no search goes back to them.
    while (firstWithRoom < groups.length && groups[firstWithRoom].size >= TRANSACTION_ITEMS) firstWithRoom++;
  }
  return groups.map((group) => group.creations);
}

/**
 * Commits the creations in transactions of up to 100 items (a creation never split, no item
 * touched twice in one), several at once. A transaction cancelled by a failed condition or a
 * conflict (an item exists meanwhile, a guard is taken, a concurrent transaction touched one
 * of its items) is written by nothing: its entries go to `fallback`, one at a time, which
 * decides their outcome as the one-entry path would. Returns how many entries the bulk path
 * created.
 */
export async function createInBulk<T>(
  db: TableContext,
  creations: BulkCreation<T>[],
  fallback: (entry: T) => Promise<void>,
): Promise<number> {
  const groups = packWithoutSharedItems(creations);
  const refused: BulkCreation<T>[] = [];
  let created = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, groups.length) }, async () => {
      while (next < groups.length) {
        const group = groups[next++];
        try {
          await transact(
            db,
            group.flatMap((creation) => creation.writes),
          );
          created += group.length;
        } catch (error) {
          if (!cancellationCodes(error)) throw error;
          refused.push(...group);
        }
      }
    }),
  );
  // Sequential, in fixture order: the one-entry path reads each entry again and reports (or throws) as it would alone.
  const order = new Map(creations.map((creation, index) => [creation, index]));
  for (const creation of refused.sort((a, b) => order.get(a)! - order.get(b)!)) await fallback(creation.entry);
  return created;
}

/** What a recount changed: how many counter items it wrote. */
export interface RecountOutcome {
  organization: boolean;
  memberships: number;
}

type Item = Record<string, unknown>;

async function queryPrefix(db: TableContext, orgId: string, prefix: string, projection: string): Promise<Item[]> {
  return queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.organization(orgId).PK, ':prefix': prefix },
    ProjectionExpression: projection,
    ...(projection.includes('#status') ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
    ConsistentRead: true,
  });
}

/** The entity items of a prefix, without the items nested under them (a member's settings, a recording's parts). */
const topLevel = (items: Item[]) => items.filter((item) => String(item.SK).split('#').length === 2);

/**
 * Sets an organization's counters from its items: active_member_count, recording_count and
 * trash_count, and each membership's recording_count and latest_recording_at. Each counter
 * is read before the items are counted and written only if it differs, on condition that it
 * still holds the value read: a change committed meanwhile (which moves its counter in its
 * own transaction) fails the condition, and the recount starts over. Idempotent: a second
 * recount writes nothing.
 */
export async function recountOrganization(db: TableContext, orgId: string, attempts = 5): Promise<RecountOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await recountOnce(db, orgId);
    } catch (error) {
      // A counter moved meanwhile (a failed condition, or a transaction cancelled by a concurrent one): count again.
      if (!(isConditionFailure(error) || cancellationCodes(error)) || attempt >= attempts) throw error;
    }
  }
}

async function recountOnce(db: TableContext, orgId: string): Promise<RecountOutcome> {
  // Counters first, items second: an item committed after the counters were read moved its counter too, so the condition catches it.
  const [org] = await queryPrefix(db, orgId, 'ORG', 'PK, SK, active_member_count, recording_count, trash_count');
  if (!org || org.SK !== 'ORG') throw new Error(`Organization ${orgId} does not exist`);
  const members = topLevel(await queryPrefix(db, orgId, 'MEMBER#', 'PK, SK, user_id, #status, recording_count, latest_recording_at'));
  const recordings = topLevel(await queryPrefix(db, orgId, 'REC#', 'PK, SK, recorded_by, created_at, deleted_at'));

  const perRecorder = new Map<string, { count: number; latest: string | null }>();
  let live = 0;
  for (const recording of recordings) {
    if (recording.deleted_at) continue;
    live++;
    const recorder = perRecorder.get(String(recording.recorded_by)) ?? { count: 0, latest: null };
    recorder.count++;
    const createdAt = String(recording.created_at);
    if (recorder.latest === null || createdAt > recorder.latest) recorder.latest = createdAt;
    perRecorder.set(String(recording.recorded_by), recorder);
  }
  const counts = {
    active_member_count: members.filter((m) => m.status === 'active').length,
    recording_count: live,
    trash_count: recordings.length - live,
  };

  let organization = false;
  const stored = org as Record<string, number | undefined>;
  if (
    stored.active_member_count !== counts.active_member_count ||
    (stored.recording_count ?? 0) !== counts.recording_count ||
    (stored.trash_count ?? 0) !== counts.trash_count
  ) {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.organization(orgId),
        UpdateExpression: 'SET active_member_count = :active, recording_count = :live, trash_count = :trash',
        ConditionExpression: `${heldOrAbsent('active_member_count', ':readActive', stored.active_member_count)} AND ${heldOrAbsent('recording_count', ':readLive', stored.recording_count)} AND ${heldOrAbsent('trash_count', ':readTrash', stored.trash_count)}`,
        ExpressionAttributeValues: {
          ':active': counts.active_member_count,
          ':live': counts.recording_count,
          ':trash': counts.trash_count,
          ...(stored.active_member_count === undefined ? {} : { ':readActive': stored.active_member_count }),
          ...(stored.recording_count === undefined ? {} : { ':readLive': stored.recording_count }),
          ...(stored.trash_count === undefined ? {} : { ':readTrash': stored.trash_count }),
        },
      }),
    );
    organization = true;
  }

  const stale = members.filter((member) => {
    const want = perRecorder.get(String(member.user_id)) ?? { count: 0, latest: null };
    return member.recording_count !== want.count || (member.latest_recording_at ?? null) !== want.latest;
  });
  // A hundred conditional updates per transaction: DynamoDB Local writes single updates about ten times slower.
  const chunks: Item[][] = [];
  for (let i = 0; i < stale.length; i += TRANSACTION_ITEMS) chunks.push(stale.slice(i, i + TRANSACTION_ITEMS));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, chunks.length) }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++];
        await transact(
          db,
          chunk.map((member) => {
            const want = perRecorder.get(String(member.user_id)) ?? { count: 0, latest: null };
            return {
              Update: {
                TableName: db.tableName,
                Key: { PK: member.PK as string, SK: member.SK as string },
                UpdateExpression: 'SET recording_count = :count, latest_recording_at = :latest',
                // A null latest_recording_at is matched by its type: DynamoDB compares no NULL with `=`.
                ConditionExpression: `recording_count = :readCount AND ${member.latest_recording_at == null ? 'attribute_type(latest_recording_at, :null)' : 'latest_recording_at = :readLatest'}`,
                ExpressionAttributeValues: {
                  ':count': want.count,
                  ':latest': want.latest,
                  ':readCount': member.recording_count,
                  ...(member.latest_recording_at == null ? { ':null': 'NULL' } : { ':readLatest': member.latest_recording_at }),
                },
              },
            };
          }),
        );
      }
    }),
  );
  return { organization, memberships: stale.length };
}

/** A condition that the attribute still holds what was read (absent when it was absent). */
function heldOrAbsent(attribute: string, placeholder: string, read: number | undefined): string {
  return read === undefined ? `attribute_not_exists(${attribute})` : `${attribute} = ${placeholder}`;
}
