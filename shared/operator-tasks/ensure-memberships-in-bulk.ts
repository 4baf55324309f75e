import type { Fixture } from '../schemas/fixture';
import { createInBulk, membershipCreationWrites, type BulkCreation } from '../storage/bulk-writes';
import type { TableContext } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { membershipFromItem, type Membership } from '../storage/membership-items';
import { getOrganization, markDerivedIndexIncomplete } from '../storage/organizations';
import { batchGetAll } from '../storage/query-all';
import { userFromItem, type User } from '../storage/users';
import { firstOccurrences, keyOf, memberKey, readByKey, type Count, type SeededSoFar } from './bulk-entries';
import { ensureMembership } from './directory';

type MembershipEntry = Fixture['memberships'][number];

/** New memberships to create in the transactions that create their users, by user id. */
export type JoinedMemberships = Map<string, BulkCreation<MembershipEntry>[]>;

/** At most this many memberships ride in their user's creation, which stays within a transaction's 100 items; the others go through the memberships section. */
const JOINED_PER_USER = 50;

/**
 * The new memberships that go into the transaction creating their user (ensureUsersInBulk),
 * for users it found absent: a membership that way needs no check that its user exists (the
 * user's own put, in the same transaction, shows it), and a check costs DynamoDB nearly what
 * a put does. Only first occurrences, of an organization that exists: a repeat goes one at a
 * time after the bulk write, in order, and a membership of an unknown organization to the
 * memberships section, which refuses it as usual. The member search index of their
 * organizations is marked incomplete first (see ensureMembershipsInBulk); a seed that fails
 * after they are written leaves them as an interrupted seed does, for a re-run to find.
 *
 * @param users absent users that the fixture gives once (a user given twice is updated by its
 *   repeat, which its memberships must copy, so they wait for the memberships section)
 */
export async function membershipsJoiningTheirUsers(
  db: TableContext,
  fixture: Fixture,
  now: Date,
  users: readonly User[],
): Promise<JoinedMemberships> {
  const byId = new Map(users.map((user) => [user.user_id, user]));
  const { first } = firstOccurrences(fixture.memberships, (m) => [memberKey(m.org_id, m.user_id)]);
  const candidates = first.filter((m) => byId.has(m.user_id));
  const orgs = await existingOrganizations(
    db,
    candidates.map((m) => m.org_id),
  );
  const recorded = recordingCountsOf(fixture, now);
  const joined: JoinedMemberships = new Map();
  for (const m of candidates) {
    const user = byId.get(m.user_id);
    if (!user || !orgs.has(m.org_id) || (joined.get(m.user_id)?.length ?? 0) >= JOINED_PER_USER) continue;
    const writes = membershipCreationWrites(db, newMembership(m, user, recorded, now), { userCreatedAlongside: true });
    joined.set(m.user_id, [...(joined.get(m.user_id) ?? []), { entry: m, writes }]);
  }
  const joinedOrgs = new Set([...joined.values()].flat().map((creation) => creation.entry.org_id));
  for (const orgId of joinedOrgs) await markDerivedIndexIncomplete(db, orgId, 'member_search_index_at');
  return joined;
}

/**
 * The memberships section in bulk. New memberships of existing users and organizations are
 * written many per transaction (each only where none is, with a check that its user exists),
 * already holding the recording counts the fixture gives them; the organization's counters
 * and member search index are set afterwards from the items (`seedFixture` ends with both),
 * and the search index is marked incomplete first, so a seed interrupted in between leaves
 * `q` reading the members themselves until a re-run rebuilds it. What `seeded` says is not
 * read again: no membership the users section created, of a new organization or of a user
 * found absent, no user the users section left. Returns the memberships now stored.
 */
export async function ensureMembershipsInBulk(
  db: TableContext,
  fixture: Fixture,
  now: Date,
  count: Count,
  seeded: SeededSoFar = {},
): Promise<Set<string>> {
  const entries = fixture.memberships;
  const { first: firstOfEach, repeats } = firstOccurrences(entries, (m) => [memberKey(m.org_id, m.user_id)]);
  const first = firstOfEach.filter((m) => {
    if (!seeded.membershipsCreated?.has(memberKey(m.org_id, m.user_id))) return true;
    count('created');
    return false;
  });
  const cannotBeStored = (m: MembershipEntry) => Boolean(seeded.newOrgs?.has(m.org_id) || seeded.users?.get(m.user_id)?.absent);
  const stored = await readByKey(
    db,
    first.filter((m) => !cannotBeStored(m)).map((m) => keys.membership(m.org_id, m.user_id)),
  );
  const ensureOne = async (m: MembershipEntry) =>
    count(
      await ensureMembership(db, { orgId: m.org_id, userId: m.user_id, role: m.role, status: m.status, memberSince: m.member_since }, now),
    );
  const absent: MembershipEntry[] = [];
  for (const m of first) {
    const item = stored.get(keyOf(keys.membership(m.org_id, m.user_id)));
    if (!item) {
      absent.push(m);
      continue;
    }
    const existing = membershipFromItem(item);
    const unchanged =
      existing.role === m.role && existing.status === m.status && existing.member_since === (m.member_since ?? existing.member_since);
    if (unchanged) count('unchanged');
    else await ensureOne(m);
  }
  const users = await usersOf(
    db,
    absent.map((m) => m.user_id),
    seeded,
  );
  const orgs = await existingOrganizations(
    db,
    absent.map((m) => m.org_id),
  );
  const recorded = recordingCountsOf(fixture, now);
  const creations: BulkCreation<MembershipEntry>[] = [];
  const oneByOne: MembershipEntry[] = [];
  for (const m of absent) {
    const user = users.get(m.user_id);
    // A missing user or organization: the one-entry path refuses it with its usual error.
    if (!user || !orgs.has(m.org_id)) oneByOne.push(m);
    else creations.push({ entry: m, writes: membershipCreationWrites(db, newMembership(m, user, recorded, now)) });
  }
  for (const orgId of new Set(creations.map((creation) => creation.entry.org_id)))
    await markDerivedIndexIncomplete(db, orgId, 'member_search_index_at');
  const created = await createInBulk(db, creations, ensureOne);
  for (let i = 0; i < created; i++) count('created');
  for (const m of [...oneByOne, ...repeats]) await ensureOne(m);
  // Every entry was created, left or updated, or the section threw.
  return new Set(entries.map((m) => memberKey(m.org_id, m.user_id)));
}

/** The email and display name of each user, from what the users section left, else read. */
async function usersOf(
  db: TableContext,
  userIds: string[],
  seeded: SeededSoFar,
): Promise<Map<string, { email: string; display_name: string }>> {
  const users = new Map<string, { email: string; display_name: string }>();
  const unread: string[] = [];
  for (const id of new Set(userIds)) {
    const user = seeded.users?.get(id);
    if (user) users.set(id, user);
    else unread.push(id);
  }
  for (const user of (
    await batchGetAll(
      db,
      unread.map((id) => keys.user(id)),
    )
  ).map(userFromItem))
    users.set(user.user_id, user);
  return users;
}

async function existingOrganizations(db: TableContext, orgIds: string[]): Promise<Set<string>> {
  const orgs = await Promise.all([...new Set(orgIds)].map((id) => getOrganization(db, id)));
  return new Set(orgs.flatMap((org) => (org ? [org.org_id] : [])));
}

/** A new membership as the bulk path stores it: the user's email and name, the fixture's role and status, and the recording counts the fixture gives it. */
function newMembership(
  m: MembershipEntry,
  user: { email: string; display_name: string },
  recorded: Map<string, RecordingCounts>,
  now: Date,
): Membership {
  const timestamp = now.toISOString();
  const counts = recorded.get(memberKey(m.org_id, m.user_id)) ?? { count: 0, latest: null };
  return {
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
}

type RecordingCounts = { count: number; latest: string | null };

/** Live recordings per member in the fixture: what a new membership starts with (the recount that ends the seed has the last word). */
function recordingCountsOf(fixture: Fixture, now: Date): Map<string, RecordingCounts> {
  const counts = new Map<string, RecordingCounts>();
  for (const recording of fixture.recordings) {
    if (recording.deleted_at) continue;
    const createdAt = recording.created_at ?? now.toISOString();
    const key = memberKey(recording.org_id, recording.recorded_by);
    const entry = counts.get(key) ?? { count: 0, latest: null };
    entry.count++;
    if (entry.latest === null || createdAt > entry.latest) entry.latest = createdAt;
    counts.set(key, entry);
  }
  return counts;
}
