import { ConflictError, NotFoundError, ValidationError } from '../../http/errors';
import type { Fixture } from '../../schemas/fixture';
import {
  addOrganizationCounts,
  BULK_CONCURRENCY,
  getEmailOwners,
  getMembershipsByRef,
  getOrganizationsById,
  getUsersById,
  inPool,
  membershipRef,
  putNewMemberships,
  putNewRecordings,
  putNewUsers,
  setRecorderCounts,
  storedRecordingRefs,
} from '../../storage/bulk-writes';
import type { TableContext } from '../../storage/dynamo';
import type { Membership } from '../../storage/memberships';
import { relatedItemCount, TRANSACTION_WRITE_LIMIT } from '../../storage/recording-writes';
import type { Recording } from '../../storage/recordings';
import { getTags } from '../../storage/tags';
import type { User } from '../../storage/users';
import { DEFAULT_TIMEZONE, ensureMembership, ensureUser, type EnsureOutcome } from './directory';
import { fixtureRecording } from './ensure-recording';

/*
 * The bulk path of seedFixture for the sections a fixture has many of (users, memberships,
 * recordings): read what exists in BatchGetItem requests, plan every entry in memory, write
 * the new items with BatchWriteItem and each counter once with what the new items add. An
 * entry that changes a stored item, or repeats an id met earlier in the same fixture, goes
 * through its ensure* function afterwards, as before. The outcomes and errors per entry are
 * those of the ensure* functions, with one difference: a refused entry now stops the section
 * before any of it is written.
 */

type Count = (outcome: EnsureOutcome) => void;

/** Users: new ones (and their email guards) in bulk; changes and repeated ids through ensureUser. */
export async function seedUsers(db: TableContext, entries: Fixture['users'], now: Date, count: Count): Promise<void> {
  const [stored, emailOwners] = await Promise.all([getUsersById(db, entries.map((e) => e.id)), getEmailOwners(db, entries.map((e) => e.email))]);
  const timestamp = now.toISOString();
  const seen = new Set<string>();
  const claimedBy = new Map<string, string>();
  const created: User[] = [];
  const later: Fixture['users'] = [];
  for (const entry of entries) {
    const email = entry.email.toLowerCase();
    if (seen.has(entry.id)) {
      later.push(entry);
      continue;
    }
    seen.add(entry.id);
    const existing = stored.get(entry.id);
    if (existing) {
      if (existing.email !== email) throw new ConflictError('EMAIL_MISMATCH', `User ${entry.id} exists with another email; changing it is not supported.`);
      if (existing.display_name === entry.display_name && existing.timezone === (entry.timezone ?? existing.timezone)) count('unchanged');
      else later.push(entry);
      continue;
    }
    const owner = emailOwners.get(email) ?? claimedBy.get(email);
    if (owner) throw new ConflictError('EMAIL_TAKEN', `Email ${entry.email} already belongs to user ${owner}.`);
    claimedBy.set(email, entry.id);
    created.push({ user_id: entry.id, email, display_name: entry.display_name, timezone: entry.timezone ?? DEFAULT_TIMEZONE, created_at: timestamp, updated_at: timestamp });
  }
  await putNewUsers(db, created);
  created.forEach(() => count('created'));
  for (const entry of later) count(await ensureUser(db, entry, now));
}

/** Memberships: new ones in bulk with one count update per organization; changes and repeats through ensureMembership. */
export async function seedMemberships(db: TableContext, entries: Fixture['memberships'], now: Date, count: Count): Promise<void> {
  const pairs = entries.map((e) => ({ orgId: e.org_id, userId: e.user_id }));
  const [orgs, users, stored] = await Promise.all([
    getOrganizationsById(db, entries.map((e) => e.org_id)),
    getUsersById(db, entries.map((e) => e.user_id)),
    getMembershipsByRef(db, pairs),
  ]);
  const timestamp = now.toISOString();
  const seen = new Set<string>();
  const created: Membership[] = [];
  const later: Fixture['memberships'] = [];
  for (const entry of entries) {
    const ref = membershipRef(entry.org_id, entry.user_id);
    if (seen.has(ref)) {
      later.push(entry);
      continue;
    }
    seen.add(ref);
    const existing = stored.get(ref);
    if (existing) {
      const unchanged = existing.role === entry.role && existing.status === entry.status && existing.member_since === (entry.member_since ?? existing.member_since);
      if (unchanged) count('unchanged');
      else later.push(entry);
      continue;
    }
    const user = users.get(entry.user_id);
    if (!orgs.has(entry.org_id)) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${entry.org_id} does not exist.`);
    if (!user) throw new NotFoundError('USER_NOT_FOUND', `User ${entry.user_id} does not exist.`);
    created.push({
      org_id: entry.org_id,
      user_id: user.user_id,
      email: user.email,
      display_name: user.display_name,
      role: entry.role,
      status: entry.status,
      member_since: entry.member_since ?? timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      recording_count: 0,
      latest_recording_at: null,
    });
  }
  await putNewMemberships(db, created);
  const joined = countBy(created.filter((m) => m.status === 'active'), (m) => m.org_id);
  await inPool([...joined], BULK_CONCURRENCY, ([orgId, n]) => addOrganizationCounts(db, orgId, { activeMembers: n }, timestamp));
  created.forEach(() => count('created'));
  for (const m of later) {
    count(await ensureMembership(db, { orgId: m.org_id, userId: m.user_id, role: m.role, status: m.status, memberSince: m.member_since }, now));
  }
}

/**
 * Recordings: a stored id (or one met earlier in the fixture) is left as it is; new ones are
 * written in bulk, then each organization's live and trash counts and each recorder's live
 * count and newest recording once, with what the new recordings add.
 */
export async function seedRecordings(db: TableContext, entries: Fixture['recordings'], now: Date, count: Count): Promise<void> {
  const [stored, members, orgs] = await Promise.all([
    storedRecordingRefs(db, entries.map((e) => ({ orgId: e.org_id, id: e.id }))),
    getMembershipsByRef(db, entries.map((e) => ({ orgId: e.org_id, userId: e.recorded_by }))),
    getOrganizationsById(db, entries.map((e) => e.org_id)),
  ]);
  const orgTags = await knownTags(db, entries.filter((e) => !stored.has(`${e.org_id}|${e.id}`)));
  const seen = new Set<string>();
  const created: ReturnType<typeof fixtureRecording>[] = [];
  for (const entry of entries) {
    const ref = `${entry.org_id}|${entry.id}`;
    if (stored.has(ref) || seen.has(ref)) {
      count('unchanged');
      continue;
    }
    seen.add(ref);
    // The checks of ensureRecording, in its order.
    const unknown = entry.tags.filter((id) => !orgTags.get(entry.org_id)?.has(id));
    if (unknown.length) throw ValidationError.field(`recordings.${entry.id}.tags`, 'invalid_value', `names tags this organization does not have: ${unknown.join(', ')}`);
    const planned = fixtureRecording(entry, now);
    if (relatedItemCount(entry.org_id, entry.id, planned.parts) + entry.tags.length + 3 > TRANSACTION_WRITE_LIMIT) {
      throw ValidationError.field('transcript', 'too_long', 'is too large to store with the recording at once');
    }
    if (!members.has(membershipRef(entry.org_id, entry.recorded_by))) {
      throw ValidationError.field('recorded_by', 'invalid_value', `names no member of this organization (${entry.recorded_by})`);
    }
    if (!orgs.has(entry.org_id)) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${entry.org_id} does not exist.`);
    created.push(planned);
  }
  await putNewRecordings(db, created);
  const isLive = (recording: Recording) => !recording.deleted_at;
  const orgMoves = new Map<string, { live: number; trash: number }>();
  const recorders = new Map<string, { membership: Membership; added: number; newest: string }>();
  for (const { recording } of created) {
    const move = orgMoves.get(recording.org_id) ?? { live: 0, trash: 0 };
    move[isLive(recording) ? 'live' : 'trash']++;
    orgMoves.set(recording.org_id, move);
    if (!isLive(recording)) continue;
    const ref = membershipRef(recording.org_id, recording.recorded_by);
    const recorder = recorders.get(ref) ?? { membership: members.get(ref)!, added: 0, newest: recording.created_at };
    recorder.added++;
    if (recording.created_at > recorder.newest) recorder.newest = recording.created_at;
    recorders.set(ref, recorder);
  }
  await inPool([...orgMoves], BULK_CONCURRENCY, ([orgId, move]) => addOrganizationCounts(db, orgId, move));
  await inPool([...recorders.values()], BULK_CONCURRENCY, ({ membership, added, newest }) =>
    setRecorderCounts(db, membership.org_id, {
      userId: membership.user_id,
      read: membership.recording_count,
      next: membership.recording_count + added,
      latestRecordingAt: membership.latest_recording_at && membership.latest_recording_at > newest ? membership.latest_recording_at : newest,
    }),
  );
  created.forEach(() => count('created'));
}

/** The tag ids each organization has among those the entries name (one BatchGetItem per 100 per organization). */
async function knownTags(db: TableContext, entries: Fixture['recordings']): Promise<Map<string, Set<string>>> {
  const wanted = new Map<string, Set<string>>();
  for (const entry of entries) for (const tag of entry.tags) wanted.set(entry.org_id, (wanted.get(entry.org_id) ?? new Set()).add(tag));
  const known = new Map<string, Set<string>>();
  for (const [orgId, tagIds] of wanted) known.set(orgId, new Set((await getTags(db, orgId, [...tagIds])).map((tag) => tag.tag_id)));
  return known;
}

function countBy<T>(items: T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}
