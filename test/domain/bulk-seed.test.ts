import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ensureRecordingsInBulk, ensureUsersInBulk } from '../../shared/operator-tasks/ensure-in-bulk';
import { ensureMembershipsInBulk, membershipsJoiningTheirUsers } from '../../shared/operator-tasks/ensure-memberships-in-bulk';
import { createUser, type EnsureOutcome } from '../../shared/operator-tasks/directory';
import { fixtureRecording } from '../../shared/operator-tasks/ensure-recording';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { listUsers } from '../../shared/domain/members/list-users';
import { dayBounds, pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { Fixture as FixtureSchema, type Fixture } from '../../shared/schemas/fixture';
import { createInBulk, recountOrganization } from '../../shared/storage/bulk-writes';
import { keys } from '../../shared/storage/keys';
import { getMembership, getMemberships } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { recordingItem } from '../../shared/storage/recording-items';
import { getRecording } from '../../shared/storage/recordings';
import { localDeployment, unique } from '../support/api';

/**
 * The fixture loader writes users, memberships and recordings in bulk
 * (shared/operator-tasks/ensure-in-bulk.ts, ensure-memberships-in-bulk.ts): the same outcomes as
 * one entry at a time, every count exact, a second load unchanged, a seed interrupted midway
 * repaired by a re-run, and no item an API write created meanwhile overwritten.
 */
const { db } = localDeployment();
const RETENTION_DAYS = 30;
const seedDeps = { db, trashRetentionDays: RETENTION_DAYS };
const T0 = new Date('2031-05-01T12:00:00.000Z');

function fixtureOf(orgId: string, members: number): Fixture {
  const tag = `tag_${orgId}`;
  const users = Array.from({ length: members }, (_, i) => ({
    id: `usr_${orgId}_${i}`,
    email: `bulk.${i}.${orgId}@bulk-seed.example.com`,
    display_name: `Bulk ${i} ${orgId}`,
  }));
  return v.parse(FixtureSchema, {
    orgs: [{ id: orgId, name: 'Bulk seed' }],
    users,
    memberships: users.map((user, i) => ({
      org_id: orgId,
      user_id: user.id,
      role: i === 0 ? 'owner' : 'member',
      status: i % 7 === 6 ? 'removed' : 'active',
    })),
    tags: [{ id: tag, org_id: orgId, user_id: users[0].id, name: 'Bulk', color: '#1f77b4' }],
    // Two recordings per member for the first half, a fifth of them in the trash, some tagged, some with a summary.
    recordings: users.slice(0, Math.ceil(members / 2)).flatMap((user, i) =>
      [0, 1].map((k) => ({
        id: `rec_${orgId}_${i}_${k}`,
        org_id: orgId,
        recorded_by: user.id,
        title: `Recording ${i}/${k}`,
        duration: 60,
        language: 'en',
        tags: (i + k) % 3 === 0 ? [tag] : [],
        created_at: new Date(T0.getTime() - (i * 2 + k + 1) * 3_600_000).toISOString(),
        ...((i + k) % 5 === 4 ? { deleted_at: T0.toISOString() } : {}),
        ...(k === 0 ? { summary: { markdown: `Summary ${i}` } } : {}),
      })),
    ),
  }) as Fixture;
}

/** The counts the fixture implies against the stored ones; empty when every one is exact. */
async function countMismatches(fixture: Fixture): Promise<string[]> {
  const orgId = fixture.orgs[0].id;
  const live = fixture.recordings.filter((r) => !r.deleted_at);
  const org = await getOrganization(db, orgId);
  const problems: string[] = [];
  const want = {
    active: fixture.memberships.filter((m) => m.status === 'active').length,
    live: live.length,
    trash: fixture.recordings.length - live.length,
  };
  const got = { active: org?.active_member_count, live: org?.recording_count, trash: org?.trash_count };
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`organization ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
  for (const m of await getMemberships(
    db,
    orgId,
    fixture.memberships.map((entry) => entry.user_id),
  )) {
    const own = live
      .filter((r) => r.recorded_by === m.user_id)
      .map((r) => r.created_at!)
      .sort();
    if (m.recording_count !== own.length || m.latest_recording_at !== (own.at(-1) ?? null))
      problems.push(`${m.user_id}: ${m.recording_count}/${m.latest_recording_at}`);
  }
  return problems;
}

/** What List users' q and a date-range total answer, next to what the fixture holds. */
async function derivedAnswers(fixture: Fixture) {
  const orgId = fixture.orgs[0].id;
  const q = 'bulk 1';
  const { from, to } = dayBounds({ startDate: '2031-04-29', endDate: '2031-04-30' });
  const activeNames = fixture.memberships.filter((m) => m.status === 'active').map((m) => fixture.users.find((u) => u.id === m.user_id)!);
  return {
    search: (await listUsers(db, orgId, { q, page: 1, limit: 100 })).members.map((m) => m.user_id).sort(),
    searchWanted: activeNames
      .filter((u) => u.display_name.toLowerCase().includes(q) || u.email.includes(q))
      .map((u) => u.id)
      .sort(),
    total: (await pageOfRecordings(db, { filter: { orgId, bin: 'LIVE', from, to, tagMode: 'any' }, page: 1, limit: 1 })).total,
    totalWanted: fixture.recordings.filter((r) => !r.deleted_at && r.created_at! >= from! && r.created_at! <= to!).length,
  };
}

const all = (section: number) => ({ created: section, updated: 0, unchanged: 0 });
const none = { created: 0, updated: 0, unchanged: 0 };

describe('seedFixture in bulk', () => {
  it('creates every entry with exact counts and indexes, and a second load changes nothing', async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 40);
    const first = await seedFixture(seedDeps, fixture, T0);
    expect(first).toMatchObject({
      orgs: all(1),
      users: all(40),
      memberships: all(40),
      tags: all(1),
      recordings: all(40),
      settings: none,
      invites: none,
    });
    expect(await countMismatches(fixture)).toEqual([]);
    const answers = await derivedAnswers(fixture);
    expect(answers.search).toEqual(answers.searchWanted);
    expect(answers.search.length).toBeGreaterThan(0);
    expect(answers.total).toBe(answers.totalWanted);
    expect(answers.total).toBeGreaterThan(0);
    const org = await getOrganization(db, fixture.orgs[0].id);
    expect(org?.member_search_index_at).toBe(T0.toISOString());
    expect(org?.recording_days_index_at).toBe(T0.toISOString());

    const storedBefore = await getMembership(db, fixture.orgs[0].id, fixture.users[3].id);
    const second = await seedFixture(seedDeps, fixture, new Date(T0.getTime() + 60_000));
    expect(second).toMatchObject({
      users: { created: 0, updated: 0, unchanged: 40 },
      memberships: { created: 0, updated: 0, unchanged: 40 },
      recordings: { created: 0, updated: 0, unchanged: 40 },
    });
    expect(await getMembership(db, fixture.orgs[0].id, fixture.users[3].id)).toEqual(storedBefore);
    expect(await getOrganization(db, fixture.orgs[0].id)).toEqual(org);
  });

  it('reports a changed user or membership as updated, as one entry at a time does', async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 6);
    await seedFixture(seedDeps, fixture, T0);
    const changed: Fixture = {
      ...fixture,
      users: fixture.users.map((u, i) => (i === 1 ? { ...u, display_name: 'Renamed' } : u)),
      memberships: fixture.memberships.map((m, i) => (i === 2 ? { ...m, status: 'removed' as const } : m)),
    };
    const summary = await seedFixture(seedDeps, changed, T0);
    expect(summary.users).toEqual({ created: 0, updated: 1, unchanged: 5 });
    expect(summary.memberships).toEqual({ created: 0, updated: 1, unchanged: 5 });
    expect(await countMismatches(changed)).toEqual([]);
  });

  it('repairs on a re-run what a seed interrupted after its bulk writes left: counts and derived indexes', async () => {
    const tagged = fixtureOf(`org_bulk_${unique()}`, 30);
    // Untagged, so the bulk writes below need no tag seeded before them.
    const fixture: Fixture = { ...tagged, tags: [], recordings: tagged.recordings.map((r) => ({ ...r, tags: [] })) };
    const orgId = fixture.orgs[0].id;
    await seedFixture(seedDeps, { ...fixture, users: [], memberships: [], recordings: [] }, T0);
    // The bulk writes of half the fixture, then the seed dies before its recount and rebuilds.
    const halfMembers = fixture.memberships.slice(0, 15);
    const half: Fixture = {
      ...fixture,
      memberships: halfMembers,
      recordings: fixture.recordings.filter((r) => halfMembers.some((m) => m.user_id === r.recorded_by)),
    };
    const ignore = () => {};
    await ensureUsersInBulk(db, fixture.users, T0, ignore);
    await ensureMembershipsInBulk(db, half, T0, ignore);
    await ensureRecordingsInBulk(seedDeps, half.recordings, T0, ignore);
    expect(await countMismatches(fixture)).not.toEqual([]);
    expect((await getOrganization(db, orgId))?.member_search_index_at).toBeUndefined();

    const rerun = await seedFixture(seedDeps, fixture, T0);
    expect(rerun.users).toEqual({ created: 0, updated: 0, unchanged: 30 });
    expect(rerun.memberships).toEqual({ created: 15, updated: 0, unchanged: 15 });
    expect(rerun.recordings).toEqual({
      created: fixture.recordings.length - half.recordings.length,
      updated: 0,
      unchanged: half.recordings.length,
    });
    expect(await countMismatches(fixture)).toEqual([]);
    const answers = await derivedAnswers(fixture);
    expect(answers.search).toEqual(answers.searchWanted);
    expect(answers.total).toBe(answers.totalWanted);
  });

  it('sets counters some other writer left wrong, and a second recount writes nothing', async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 8);
    const orgId = fixture.orgs[0].id;
    await seedFixture(seedDeps, fixture, T0);
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.organization(orgId),
        UpdateExpression: 'SET recording_count = :n REMOVE trash_count',
        ExpressionAttributeValues: { ':n': 99 },
      }),
    );
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.membership(orgId, fixture.users[0].id),
        UpdateExpression: 'SET recording_count = :n, latest_recording_at = :null',
        ExpressionAttributeValues: { ':n': 5, ':null': null },
      }),
    );
    expect(await recountOrganization(db, orgId)).toEqual({ organization: true, memberships: 1 });
    expect(await countMismatches(fixture)).toEqual([]);
    expect(await recountOrganization(db, orgId)).toEqual({ organization: false, memberships: 0 });
  });

  it('never overwrites an item written meanwhile: its transaction is cancelled and the one-entry path decides', async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 4);
    const orgId = fixture.orgs[0].id;
    await seedFixture(seedDeps, { ...fixture, recordings: [] }, T0);
    const [entry, other] = fixture.recordings;
    // An API write of the same recording id lands between the loader's read and its write.
    const { recording: apiRecording } = fixtureRecording({ ...entry, title: 'Written by the API' }, T0, RETENTION_DAYS);
    await createRecording({ db, now: () => T0 }, apiRecording);
    const fallen: string[] = [];
    const creations = [entry, other].map((e) => {
      const { recording } = fixtureRecording(e, T0, RETENTION_DAYS);
      return {
        entry: e,
        writes: [{ Put: { TableName: db.tableName, Item: recordingItem(recording), ConditionExpression: 'attribute_not_exists(PK)' } }],
      };
    });
    const created = await createInBulk(db, creations, async (e) => void fallen.push(e.id));
    expect(created).toBe(0);
    expect(fallen).toEqual([entry.id, other.id]);
    expect((await getRecording(db, orgId, entry.id))?.title).toBe('Written by the API');
    expect(await getRecording(db, orgId, other.id)).toBeUndefined();
  });

  it("creates a new user's memberships in the transaction that creates it; those of a user written meanwhile go through the memberships section", async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 40);
    await seedFixture(seedDeps, { ...fixture, users: [], memberships: [], tags: [], recordings: [] }, T0);
    const outcomes = () => {
      const tally: Partial<Record<EnsureOutcome, number>> = {};
      return { tally, count: (outcome: EnsureOutcome) => void (tally[outcome] = (tally[outcome] ?? 0) + 1) };
    };
    const [meanwhile] = fixture.users;
    const users = outcomes();
    const section = await ensureUsersInBulk(db, fixture.users, T0, users.count, async (absent) => {
      // Another writer creates a user between the loader's read and its write: that transaction is cancelled.
      await createUser(db, meanwhile, T0);
      return membershipsJoiningTheirUsers(db, fixture, T0, absent);
    });
    expect(users.tally).toEqual({ created: 39, unchanged: 1 });
    // The other transactions committed their users with their memberships; the cancelled one's are left.
    expect(section.membershipsCreated.size).toBeGreaterThan(0);
    expect(section.membershipsCreated.has(`${fixture.orgs[0].id}|${meanwhile.id}`)).toBe(false);

    const memberships = outcomes();
    await ensureMembershipsInBulk(db, fixture, T0, memberships.count, {
      users: section.users,
      membershipsCreated: section.membershipsCreated,
    });
    expect(memberships.tally).toEqual({ created: 40 });
    expect(
      (
        await getMemberships(
          db,
          fixture.orgs[0].id,
          fixture.users.map((user) => user.id),
        )
      ).map((m) => [m.user_id, m.email, m.display_name]),
    ).toEqual(fixture.users.map((user) => [user.id, user.email, user.display_name]));
    const rerun = await seedFixture(seedDeps, fixture, T0);
    expect(rerun).toMatchObject({
      users: { created: 0, updated: 0, unchanged: 40 },
      memberships: { created: 0, updated: 0, unchanged: 40 },
      recordings: all(40),
    });
    expect(await countMismatches(fixture)).toEqual([]);
  });

  it('loads people who belong to two organizations: no transaction holds two operations on one item', async () => {
    // 60 people in both, already stored: 120 memberships each checking its user, more than one transaction holds.
    const [a, b] = [fixtureOf(`org_bulk_${unique()}`, 60), fixtureOf(`org_bulk_${unique()}`, 1)];
    const [orgB] = b.orgs;
    const fixture: Fixture = {
      ...a,
      orgs: [...a.orgs, orgB],
      // Each person's two memberships side by side, as a file listing people one after another has them.
      memberships: a.memberships.flatMap((m, i) => [
        m,
        { org_id: orgB.id, user_id: m.user_id, role: i === 0 ? ('owner' as const) : ('admin' as const), status: 'active' as const },
      ]),
    };
    // Users first: new people's memberships would go in their own creations, with no check.
    await seedFixture(seedDeps, { ...fixture, memberships: [], tags: [], recordings: [] }, T0);
    const summary = await seedFixture(seedDeps, fixture, T0);
    expect(summary.memberships).toEqual({ created: 120, updated: 0, unchanged: 0 });
    expect(await countMismatches(a)).toEqual([]);
    expect(
      (
        await getMemberships(
          db,
          orgB.id,
          a.users.map((user) => user.id),
        )
      ).map((m) => [m.user_id, m.status, m.email]),
    ).toEqual(a.users.map((user) => [user.id, 'active', user.email]));
    expect((await getOrganization(db, orgB.id))?.active_member_count).toBe(60);
    expect((await seedFixture(seedDeps, fixture, T0)).memberships).toEqual({ created: 0, updated: 0, unchanged: 120 });
  });

  it('refuses what one entry at a time refuses: a membership of an unknown user, a recording of a non-member', async () => {
    const fixture = fixtureOf(`org_bulk_${unique()}`, 3);
    await expect(
      seedFixture(
        seedDeps,
        {
          ...fixture,
          memberships: [
            ...fixture.memberships,
            { org_id: fixture.orgs[0].id, user_id: 'usr_nobody_bulk', role: 'member', status: 'active' },
          ],
        },
        T0,
      ),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    const stranger = { ...fixture.recordings[0], id: `rec_stranger_${unique()}`, recorded_by: 'usr_nobody_bulk' };
    await expect(seedFixture(seedDeps, { ...fixture, recordings: [stranger] }, T0)).rejects.toThrow(/recorded_by|member/);
  });
});
