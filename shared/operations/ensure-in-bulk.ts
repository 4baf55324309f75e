import { DEFAULT_TIMEZONE } from '../schemas/common';
import type { Fixture } from '../schemas/fixture';
import { createInBulk, membershipCreationWrites, recordingCreationWrites, type BulkCreation } from '../storage/bulk-writes';
import type { TableContext } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { membershipFromItem, type Membership } from '../storage/membership-items';
import { getOrganization, markDerivedIndexIncomplete } from '../storage/organizations';
import { batchGetAll } from '../storage/query-all';
import { getTags } from '../storage/tags';
import { TRANSACTION_WRITE_LIMIT } from '../storage/recording-writes';
import { newUserParts, userFromItem, type User } from '../storage/users';
import { ensureMembership, ensureUser, type EnsureOutcome } from './directory';
import { ensureRecording, fixtureRecording, type FixtureRecordingDeps } from './ensure-recording';

type Count = (outcome: EnsureOutcome) => void;
type Item = Record<string, unknown>;

/** Stored items by key, read 100 at a time. */
async function readByKey(db: TableContext, itemKeys: { PK: string; SK: string }[]): Promise<Map<string, Item>> {
  const items = await batchGetAll(db, itemKeys);
  return new Map(items.map((item) => [`${item.PK}|${item.SK}`, item]));
}
const keyOf = (key: { PK: string; SK: string }) => `${key.PK}|${key.SK}`;

/**
 * Splits entries into the first occurrence of each key (safe to write side by side) and the
 * repeats, which go through the one-entry path after the bulk write, as a sequential load would
 * see them.
 */
function firstOccurrences<T>(entries: readonly T[], keysOf: (entry: T) => string[]): { first: T[]; repeats: T[] } {
  const seen = new Set<string>();
  const first: T[] = [];
  const repeats: T[] = [];
  for (const entry of entries) {
    const entryKeys = keysOf(entry);
    if (entryKeys.some((key) => seen.has(key))) repeats.push(entry);
    else {
      entryKeys.forEach((key) => seen.add(key));
      first.push(entry);
    }
  }
  return { first, repeats };
}

/**
 * The users section in bulk: stored users are compared in memory (one BatchGetItem per 100)
 * and only a changed one takes the one-entry path; absent users are created with their email
 * guards, each write only where nothing is, many per transaction.
 */
export async function ensureUsersInBulk(db: TableContext, entries: Fixture['users'], now: Date, count: Count): Promise<void> {
  const { first, repeats } = firstOccurrences(entries, (user) => [`id:${user.id}`, `email:${user.email.toLowerCase()}`]);
  const stored = await readByKey(db, first.map((user) => keys.user(user.id)));
  const creations: BulkCreation<Fixture['users'][number]>[] = [];
  for (const input of first) {
    const item = stored.get(keyOf(keys.user(input.id)));
    if (!item) {
      const timestamp = now.toISOString();
      const user: User = { user_id: input.id, email: input.email.toLowerCase(), display_name: input.display_name, timezone: input.timezone ?? DEFAULT_TIMEZONE, created_at: timestamp, updated_at: timestamp };
      creations.push({ entry: input, writes: newUserParts(db, user).map((part) => part.write) });
      continue;
    }
    const existing = userFromItem(item);
    const unchanged = existing.email === input.email.toLowerCase() && existing.display_name === input.display_name && existing.timezone === (input.timezone ?? existing.timezone);
    count(unchanged ? 'unchanged' : await ensureUser(db, input, now));
  }
  const created = await createInBulk(db, creations, async (input) => count(await ensureUser(db, input, now)));
  for (let i = 0; i < created; i++) count('created');
  for (const input of repeats) count(await ensureUser(db, input, now));
}

/**
 * The memberships section in bulk. New memberships of existing users and organizations are
 * written many per transaction (each only where none is, with a check that its user exists),
 * already holding the recording counts the fixture gives them; the organization's counters
 * and member search index are set afterwards from the items (`seedFixture` ends with both),
 * and the search index is marked incomplete first, so a seed interrupted in between leaves
 * `q` reading the members themselves until a re-run rebuilds it.
 */
export async function ensureMembershipsInBulk(db: TableContext, fixture: Fixture, now: Date, count: Count): Promise<void> {
  const entries = fixture.memberships;
  const { first, repeats } = firstOccurrences(entries, (m) => [keyOf(keys.membership(m.org_id, m.user_id))]);
  const stored = await readByKey(db, first.map((m) => keys.membership(m.org_id, m.user_id)));
  const ensureOne = async (m: Fixture['memberships'][number]) =>
    count(await ensureMembership(db, { orgId: m.org_id, userId: m.user_id, role: m.role, status: m.status, memberSince: m.member_since }, now));
  const absent: Fixture['memberships'] = [];
  for (const m of first) {
    const item = stored.get(keyOf(keys.membership(m.org_id, m.user_id)));
    if (!item) {
      absent.push(m);
      continue;
    }
    const existing = membershipFromItem(item);
    const unchanged = existing.role === m.role && existing.status === m.status && existing.member_since === (m.member_since ?? existing.member_since);
    if (unchanged) count('unchanged');
    else await ensureOne(m);
  }
  const users = new Map((await batchGetAll(db, [...new Set(absent.map((m) => m.user_id))].map((id) => keys.user(id)))).map(userFromItem).map((user) => [user.user_id, user]));
  const orgIds = [...new Set(absent.map((m) => m.org_id))];
  const orgs = new Set((await Promise.all(orgIds.map((id) => getOrganization(db, id)))).flatMap((org) => (org ? [org.org_id] : [])));
  const recorded = recordingCountsOf(fixture, now);
  const creations: BulkCreation<Fixture['memberships'][number]>[] = [];
  const oneByOne: Fixture['memberships'] = [];
  for (const m of absent) {
    const user = users.get(m.user_id);
    // A missing user or organization: the one-entry path refuses it with its usual error.
    if (!user || !orgs.has(m.org_id)) {
      oneByOne.push(m);
      continue;
    }
    const timestamp = now.toISOString();
    const counts = recorded.get(`${m.org_id}|${m.user_id}`) ?? { count: 0, latest: null };
    const membership: Membership = {
      org_id: m.org_id,
      user_id: m.user_id,
      email: user.email,
      display_name: user.display_name,
      role: m.role,
      status: m.status,
      member_since: m.member_since ?? timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      recording_count: counts.count,
      latest_recording_at: counts.latest,
    };
    creations.push({
      entry: m,
      writes: membershipCreationWrites(db, membership),
    });
  }
  for (const orgId of new Set(creations.map((creation) => creation.entry.org_id))) await markDerivedIndexIncomplete(db, orgId, 'member_search_index_at');
  const created = await createInBulk(db, creations, ensureOne);
  for (let i = 0; i < created; i++) count('created');
  for (const m of [...oneByOne, ...repeats]) await ensureOne(m);
}

/** Live recordings per member in the fixture: what a new membership starts with (the recount that ends the seed has the last word). */
function recordingCountsOf(fixture: Fixture, now: Date): Map<string, { count: number; latest: string | null }> {
  const counts = new Map<string, { count: number; latest: string | null }>();
  for (const recording of fixture.recordings) {
    if (recording.deleted_at) continue;
    const createdAt = recording.created_at ?? now.toISOString();
    const key = `${recording.org_id}|${recording.recorded_by}`;
    const entry = counts.get(key) ?? { count: 0, latest: null };
    entry.count++;
    if (entry.latest === null || createdAt > entry.latest) entry.latest = createdAt;
    counts.set(key, entry);
  }
  return counts;
}

/**
 * The recordings section in bulk: a stored recording is left as it is (as one at a time);
 * an absent one whose recorder is a member and whose tags exist is written with its parts
 * and tag links, many per transaction, the recording only where none is. Its counters are
 * set afterwards from the items, and the day counts are marked incomplete first (date-range
 * totals count the recordings until the rebuild that ends the seed).
 */
export async function ensureRecordingsInBulk(deps: FixtureRecordingDeps, entries: Fixture['recordings'], now: Date, count: Count): Promise<void> {
  const { db } = deps;
  const { first, repeats } = firstOccurrences(entries, (r) => [keyOf(keys.recording(r.org_id, r.id))]);
  const stored = await readByKey(db, first.map((r) => keys.recording(r.org_id, r.id)));
  const absent = first.filter((r) => {
    if (!stored.has(keyOf(keys.recording(r.org_id, r.id)))) return true;
    count('unchanged');
    return false;
  });
  const members = await readByKey(db, [...new Set(absent.map((r) => `${r.org_id}|${r.recorded_by}`))].map((key) => keys.membership(...(key.split('|') as [string, string]))));
  const tagsOfOrg = new Map<string, Set<string>>();
  for (const orgId of new Set(absent.map((r) => r.org_id))) {
    const wanted = [...new Set(absent.filter((r) => r.org_id === orgId).flatMap((r) => r.tags))];
    tagsOfOrg.set(orgId, new Set((await getTags(db, orgId, wanted)).map((tag) => tag.tag_id)));
  }
  const creations: BulkCreation<Fixture['recordings'][number]>[] = [];
  const oneByOne: Fixture['recordings'] = [];
  for (const entry of absent) {
    const { recording, parts } = fixtureRecording(entry, now, deps.trashRetentionDays);
    const writes = recordingCreationWrites(db, recording, parts);
    const valid = members.has(keyOf(keys.membership(entry.org_id, entry.recorded_by))) && entry.tags.every((tag) => tagsOfOrg.get(entry.org_id)?.has(tag));
    // An invalid entry, or one too large for a transaction with its counters: the one-entry path refuses it as usual.
    if (!valid || writes.length + 5 > TRANSACTION_WRITE_LIMIT) oneByOne.push(entry);
    else creations.push({ entry, writes });
  }
  for (const orgId of new Set(creations.map((creation) => creation.entry.org_id))) await markDerivedIndexIncomplete(db, orgId, 'recording_days_index_at');
  const created = await createInBulk(db, creations, async (entry) => count(await ensureRecording(deps, entry, now)));
  for (let i = 0; i < created; i++) count('created');
  for (const entry of [...oneByOne, ...repeats]) count(await ensureRecording(deps, entry, now));
}
