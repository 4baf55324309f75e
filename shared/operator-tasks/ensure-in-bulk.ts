import { DEFAULT_TIMEZONE } from '../schemas/common';
import type { Fixture } from '../schemas/fixture';
import { createInBulk, recordingCreationWrites, type BulkCreation } from '../storage/bulk-writes';
import type { TableContext } from '../storage/dynamo';
import { keys } from '../storage/keys';
import { membershipFromItem } from '../storage/membership-items';
import { markDerivedIndexIncomplete } from '../storage/organizations';
import { batchGetAll } from '../storage/query-all';
import { getTags } from '../storage/tags';
import { TRANSACTION_WRITE_LIMIT } from '../storage/recording-writes';
import { newUserParts, userFromItem, type User } from '../storage/users';
import { firstOccurrences, keyOf, memberKey, readByKey, type Count, type SeededSoFar, type SeededUsers } from './bulk-entries';
import { ensureUser } from './directory';
import type { JoinedMemberships } from './ensure-memberships-in-bulk';
import { ensureRecording, fixtureRecording, type FixtureRecordingDeps } from './ensure-recording';

/** What the users section leaves: the users, and the memberships it created along with them. */
export interface UsersSection {
  users: SeededUsers;
  membershipsCreated: Set<string>;
}

/**
 * The users section in bulk: stored users are compared in memory (one BatchGetItem per 100)
 * and only a changed one takes the one-entry path; absent users are created with their email
 * guards, each write only where nothing is, many per transaction, and with the memberships
 * `join` gives them (membershipsJoiningTheirUsers). A user whose transaction is cancelled
 * goes through the one-entry path alone: its memberships are left to the memberships section.
 * Returns the users as they now stand (every entry was created, left or made as it says, or
 * the section threw; the last entry of an id has the last word) and the memberships created.
 */
export async function ensureUsersInBulk(
  db: TableContext,
  entries: Fixture['users'],
  now: Date,
  count: Count,
  join?: (absentUsers: User[]) => Promise<JoinedMemberships>,
): Promise<UsersSection> {
  const { first, repeats } = firstOccurrences(entries, (user) => [`id:${user.id}`, `email:${user.email.toLowerCase()}`]);
  const stored = await readByKey(
    db,
    first.map((user) => keys.user(user.id)),
  );
  const absent: { input: Fixture['users'][number]; user: User }[] = [];
  for (const input of first) {
    const item = stored.get(keyOf(keys.user(input.id)));
    if (!item) {
      const timestamp = now.toISOString();
      absent.push({
        input,
        user: {
          user_id: input.id,
          email: input.email.toLowerCase(),
          display_name: input.display_name,
          timezone: input.timezone ?? DEFAULT_TIMEZONE,
          created_at: timestamp,
          updated_at: timestamp,
        },
      });
      continue;
    }
    const existing = userFromItem(item);
    const unchanged =
      existing.email === input.email.toLowerCase() &&
      existing.display_name === input.display_name &&
      existing.timezone === (input.timezone ?? existing.timezone);
    count(unchanged ? 'unchanged' : await ensureUser(db, input, now));
  }
  const repeated = new Set(repeats.map((input) => input.id));
  const joined: JoinedMemberships = join
    ? await join(absent.map(({ user }) => user).filter((user) => !repeated.has(user.user_id)))
    : new Map<never, never>();
  const creations: BulkCreation<Fixture['users'][number]>[] = absent.map(({ input, user }) => ({
    entry: input,
    writes: [
      ...newUserParts(db, user).map((part) => part.write),
      ...(joined.get(user.user_id) ?? []).flatMap((membership) => membership.writes),
    ],
  }));
  const refused = new Set<string>();
  const created = await createInBulk(db, creations, async (input) => {
    refused.add(input.id);
    count(await ensureUser(db, input, now));
  });
  for (let i = 0; i < created; i++) count('created');
  for (const input of repeats) count(await ensureUser(db, input, now));
  const membershipsCreated = new Set(
    [...joined]
      .filter(([userId]) => !refused.has(userId))
      .flatMap(([, memberships]) => memberships.map(({ entry }) => memberKey(entry.org_id, entry.user_id))),
  );
  const absentIds = new Set(absent.map(({ user }) => user.user_id));
  const users = new Map(
    entries.map((input) => [
      input.id,
      { email: input.email.toLowerCase(), display_name: input.display_name, absent: absentIds.has(input.id) },
    ]),
  );
  return { users, membershipsCreated };
}

/**
 * The recordings section in bulk: a stored recording is left as it is (as one at a time);
 * an absent one whose recorder is a member and whose tags exist is written with its parts
 * and tag links, many per transaction, the recording only where none is. Its counters are
 * set afterwards from the items, and the day counts are marked incomplete first (date-range
 * totals count the recordings until the rebuild that ends the seed). No recording of a new
 * organization is read, nor a membership the memberships section stored (`seeded`).
 */
export async function ensureRecordingsInBulk(
  deps: FixtureRecordingDeps,
  entries: Fixture['recordings'],
  now: Date,
  count: Count,
  seeded: SeededSoFar = {},
): Promise<void> {
  const { db } = deps;
  const { first, repeats } = firstOccurrences(entries, (r) => [keyOf(keys.recording(r.org_id, r.id))]);
  // As for memberships: a recording stored despite this cancels its transaction, and the one-entry path reports it unchanged.
  const stored = await readByKey(
    db,
    first.filter((r) => !seeded.newOrgs?.has(r.org_id)).map((r) => keys.recording(r.org_id, r.id)),
  );
  const absent = first.filter((r) => {
    if (!stored.has(keyOf(keys.recording(r.org_id, r.id)))) return true;
    count('unchanged');
    return false;
  });
  // A recorder is a member when the memberships section stored its membership, or when it is read now.
  const members = new Set<string>();
  const unread = new Map<string, { PK: string; SK: string }>();
  for (const { org_id: orgId, recorded_by: userId } of absent) {
    if (seeded.memberships?.has(memberKey(orgId, userId))) members.add(memberKey(orgId, userId));
    else unread.set(memberKey(orgId, userId), keys.membership(orgId, userId));
  }
  for (const m of (await batchGetAll(db, [...unread.values()])).map(membershipFromItem)) members.add(memberKey(m.org_id, m.user_id));
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
    const valid =
      members.has(memberKey(entry.org_id, entry.recorded_by)) && entry.tags.every((tag) => tagsOfOrg.get(entry.org_id)?.has(tag));
    // An invalid entry, or one too large for a transaction with its counters: the one-entry path refuses it as usual.
    if (!valid || writes.length + 5 > TRANSACTION_WRITE_LIMIT) oneByOne.push(entry);
    else creations.push({ entry, writes });
  }
  for (const orgId of new Set(creations.map((creation) => creation.entry.org_id)))
    await markDerivedIndexIncomplete(db, orgId, 'recording_days_index_at');
  const created = await createInBulk(db, creations, async (entry) => count(await ensureRecording(deps, entry, now)));
  for (let i = 0; i < created; i++) count('created');
  for (const entry of [...oneByOne, ...repeats]) count(await ensureRecording(deps, entry, now));
}
