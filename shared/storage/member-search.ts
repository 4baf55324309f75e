import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants } from 'node:zlib';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { membershipFromItem, searchText, type Membership } from './membership-items';
import { markDerivedIndexComplete } from './organizations';
import { batchWriteAll, queryAll } from './query-all';
import { commitParts, WriteConflict, type TransactionPart, type TransactItem } from './transactions';
import { backoffDelayMs } from './write-retries';

/*
 * The member search index: `q` of List users matches a substring of a member's email or
 * display name, which no DynamoDB index can answer. Instead of reading every active
 * membership (about 535 bytes each), the organization keeps its active members' emails and
 * display names packed and compressed in a few items of one partition, written in the same
 * transaction as each membership change. A search reads that partition in one Query, matches
 * in memory and reads only the page's memberships (docs/data-model.md, "Member search").
 */

/**
 * Shards of an organization's index. A member's entry lives in the shard its user id hashes
 * to, so a membership change rewrites one shard: about 1/64 of the organization's packed
 * entries (3 KB at 10,000 members). A search reads them all whatever their number.
 */
export const MEMBER_SEARCH_SHARDS = 64;

/** What the index keeps of an active member: enough to match `q`, order by email and find the membership. */
export interface MemberSearchEntry {
  email: string;
  user_id: string;
  display_name: string;
}

/** A change of one member's entry: its new entry, or null when the member is no longer active. */
export interface MemberSearchChange {
  orgId: string;
  userId: string;
  entry: MemberSearchEntry | null;
}

/** The change a membership write makes to the index: an active membership has an entry, any other none. */
export function memberSearchChangeOf(membership: Membership): MemberSearchChange {
  return {
    orgId: membership.org_id,
    userId: membership.user_id,
    entry:
      membership.status === 'active'
        ? { email: membership.email, user_id: membership.user_id, display_name: membership.display_name }
        : null,
  };
}

/** The shard of a user id: FNV-1a of its UTF-16 code units, modulo the shard count. */
export function memberSearchShardOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) hash = Math.imul(hash ^ userId.charCodeAt(i), 0x01000193) >>> 0;
  return hash % MEMBER_SEARCH_SHARDS;
}

// Entries are stored as the JSON of [email, user_id, display_name] triples, sorted by email
// order (neighbours share prefixes), Brotli-compressed: about 4× smaller than the text.
type PackedEntry = [string, string, string];

function pack(entries: Iterable<MemberSearchEntry>): Uint8Array {
  const rows: PackedEntry[] = [...entries].sort(byEmailOrder).map((e) => [e.email, e.user_id, e.display_name]);
  return brotliCompressSync(Buffer.from(JSON.stringify(rows)), {
    params: { [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT },
  });
}

function unpack(bytes: Uint8Array, where: string): MemberSearchEntry[] {
  const rows: unknown = JSON.parse(brotliDecompressSync(bytes).toString('utf8'));
  const valid =
    Array.isArray(rows) && rows.every((row) => Array.isArray(row) && row.length === 3 && row.every((cell) => typeof cell === 'string'));
  if (!valid) throw new Error(`Stored member search shard ${where} does not hold [email, user_id, display_name] rows`);
  return (rows as PackedEntry[]).map(([email, user_id, display_name]) => ({ email, user_id, display_name }));
}

/** The order of the active members index (its sort key `email#user_id`, keys.activeMembersIndex), which DynamoDB sorts by UTF-8 bytes. */
export function byEmailOrder(a: MemberSearchEntry, b: MemberSearchEntry): number {
  return Buffer.compare(Buffer.from(sortKeyOf(a)), Buffer.from(sortKeyOf(b)));
}

const sortKeyOf = (entry: MemberSearchEntry): string => `${entry.email}#${entry.user_id}`;

/** One stored shard: its entries by user id and the version its next write is conditioned on. */
interface Shard {
  shard: number;
  version: number;
  entries: Map<string, MemberSearchEntry>;
}

function shardFromItem(item: Record<string, unknown>): Shard {
  const fields = itemFields(item, 'member search shard');
  const shard = fields.number('shard');
  const entries = unpack(fields.bytes('entries'), `${String(item.PK)}|${String(item.SK)}`);
  return { shard, version: fields.number('version'), entries: new Map(entries.map((entry) => [entry.user_id, entry])) };
}

function shardItem(orgId: string, shard: Shard) {
  return {
    ...keys.memberSearchShard(orgId, shard.shard),
    shard: shard.shard,
    version: shard.version,
    entry_count: shard.entries.size,
    entries: pack(shard.entries.values()),
  };
}

async function readShard(db: TableContext, orgId: string, shard: number): Promise<Shard | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.memberSearchShard(orgId, shard), ConsistentRead: true }),
  );
  return Item ? shardFromItem(Item) : undefined;
}

/** The part name every index write of a transaction carries. */
export const MEMBER_SEARCH_PART = 'memberSearch' as const;

/**
 * The transaction parts that apply `changes` to the index: each touched shard read
 * (strongly consistent) and written whole, only if no other write replaced it meanwhile.
 * A change that leaves its entry as it is writes nothing.
 */
export async function memberSearchParts(
  db: TableContext,
  changes: readonly MemberSearchChange[],
): Promise<TransactionPart<typeof MEMBER_SEARCH_PART>[]> {
  const byShard = new Map<string, { orgId: string; shard: number; changes: MemberSearchChange[] }>();
  for (const change of changes) {
    const shard = memberSearchShardOf(change.userId);
    const id = `${change.orgId}#${shard}`;
    const group = byShard.get(id) ?? byShard.set(id, { orgId: change.orgId, shard, changes: [] }).get(id)!;
    group.changes.push(change);
  }
  const parts = await Promise.all(
    [...byShard.values()].map(async ({ orgId, shard, changes: shardChanges }) => {
      const stored = await readShard(db, orgId, shard);
      const next: Shard = { shard, version: (stored?.version ?? 0) + 1, entries: new Map(stored?.entries) };
      for (const { userId, entry } of shardChanges) {
        if (entry) next.entries.set(userId, entry);
        else next.entries.delete(userId);
      }
      if (stored && sameEntries(stored.entries, next.entries)) return undefined;
      const write: TransactItem = stored
        ? {
            Put: {
              TableName: db.tableName,
              Item: shardItem(orgId, next),
              ConditionExpression: '#version = :read',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':read': stored.version },
            },
          }
        : { Put: { TableName: db.tableName, Item: shardItem(orgId, next), ConditionExpression: 'attribute_not_exists(PK)' } };
      return { name: MEMBER_SEARCH_PART, write } satisfies TransactionPart<typeof MEMBER_SEARCH_PART>;
    }),
  );
  return parts.filter((part) => part !== undefined);
}

function sameEntries(a: Map<string, MemberSearchEntry>, b: Map<string, MemberSearchEntry>): boolean {
  if (a.size !== b.size) return false;
  for (const [userId, entry] of a) {
    const other = b.get(userId);
    if (!other || other.email !== entry.email || other.display_name !== entry.display_name) return false;
  }
  return true;
}

/** Attempts when only the index's shards were replaced under a membership write (they are re-read each time). */
const SHARD_ATTEMPTS = 8;

/**
 * Commits a membership transaction with the index changes it implies. When only a shard
 * changed meanwhile (another member of the same shard was written), the shards are read
 * again and the transaction retried: the caller's own conditions decide everything else, as
 * the WriteConflict it receives names only its own parts.
 */
export async function commitWithMemberSearch<Name extends string>(
  db: TableContext,
  parts: readonly TransactionPart<Name>[],
  changes: readonly MemberSearchChange[],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const indexParts = await memberSearchParts(db, changes);
    try {
      await commitParts<Name | typeof MEMBER_SEARCH_PART>(db, [...parts, ...indexParts]);
      return;
    } catch (error) {
      if (!(error instanceof WriteConflict)) throw error;
      const own = (error.failed as string[]).filter((name): name is Name => name !== MEMBER_SEARCH_PART);
      const onlyTheIndex = own.length === 0 && error.failed.length > 0;
      if (!onlyTheIndex || attempt >= SHARD_ATTEMPTS) throw new WriteConflict<Name>(own, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(attempt)));
    }
  }
}

/**
 * Every entry of an organization's index: one Query (a 1 MB page holds the entries of
 * about 50,000 members). Eventually consistent, like the active members index it stands
 * for. Complete only when the organization says so (`member_search_index_at`).
 */
export async function readMemberSearchIndex(db: TableContext, orgId: string): Promise<MemberSearchEntry[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberSearchShard(orgId, 0).PK },
  });
  return items.flatMap((item) => [...shardFromItem(item).entries.values()]);
}

/**
 * The entry at `position` (0-based) of the active members index's order (byEmailOrder), or
 * undefined past the end: where a List users page by number starts, found without reading
 * the memberships before it. The sort keys are made once, not at each comparison.
 */
export function entryAtPosition(entries: readonly MemberSearchEntry[], position: number): MemberSearchEntry | undefined {
  if (position >= entries.length) return undefined;
  const keyed = entries.map((entry) => ({ entry, key: Buffer.from(sortKeyOf(entry)) }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed[position].entry;
}

/** The active members whose email or display name contains `needle` (case-insensitive), in email order. */
export function matchMembers(entries: readonly MemberSearchEntry[], needle: string): MemberSearchEntry[] {
  const lower = needle.toLowerCase();
  return entries.filter((entry) => searchText(entry.email, entry.display_name).includes(lower)).sort(byEmailOrder);
}

/**
 * Rebuilds an organization's index from its active members (read whole from the active
 * members index) and marks it complete on the organization. For organizations created
 * before the index existed (`voice-org reindex`, the fixture loader); writes to the
 * organization's members while it runs may be lost from the index, so run it when the
 * organization is quiet (docs/data-model.md).
 */
export async function rebuildMemberSearchIndex(db: TableContext, orgId: string, now: string): Promise<{ entries: number; shards: number }> {
  const [members, stored] = await Promise.all([
    queryAll(db, {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.activeMembersIndex(orgId).GSI1PK },
    }),
    queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.memberSearchShard(orgId, 0).PK },
      ProjectionExpression: '#shard, #version',
      ExpressionAttributeNames: { '#shard': 'shard', '#version': 'version' },
    }),
  ]);
  const versions = new Map(stored.map((item) => [Number(item.shard), Number(item.version)]));
  const shards = new Map<number, Shard>();
  for (const membership of members.map(membershipFromItem)) {
    const change = memberSearchChangeOf(membership);
    if (!change.entry) continue;
    const number = memberSearchShardOf(change.userId);
    const shard =
      shards.get(number) ??
      shards.set(number, { shard: number, version: (versions.get(number) ?? 0) + 1, entries: new Map() }).get(number)!;
    shard.entries.set(change.userId, change.entry);
  }
  const requests = [
    ...[...shards.values()].map((shard) => ({ PutRequest: { Item: shardItem(orgId, shard) } })),
    ...[...versions.keys()]
      .filter((number) => !shards.has(number))
      .map((number) => ({ DeleteRequest: { Key: keys.memberSearchShard(orgId, number) } })),
  ];
  await batchWriteAll(db, requests);
  await markDerivedIndexComplete(db, orgId, 'member_search_index_at', now);
  return { entries: [...shards.values()].reduce((sum, shard) => sum + shard.entries.size, 0), shards: shards.size };
}
