import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import * as v from 'valibot';
import { MEMBER_STATUSES, ROLES, SCOPES } from '../../shared/core/access';
import { ensureApiKey } from '../../shared/operator-tasks/api-keys';
import { rebuildDerivedIndexes } from '../../shared/operator-tasks/derived-indexes';
import { ensureMembership, ensureOrganization, ensureUser, type EnsureOutcome } from '../../shared/operator-tasks/directory';
import { ensureInvite } from '../../shared/operator-tasks/ensure-invite';
import { ensureRecording } from '../../shared/operator-tasks/ensure-recording';
import { seedFixture, type SeedSummary } from '../../shared/operator-tasks/fixture';
import { Fixture as FixtureSchema, type Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { recountOrganization } from '../../shared/storage/bulk-writes';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { createTableInput } from '../../shared/storage/table-definition';
import { localDeployment, unique } from '../support/api';

/**
 * The bulk import (seedFixture) against the one-entry path it replaced (the ensure…
 * functions, one entry at a time): on generated fixtures where people belong to one to three
 * organizations with every role and status, with keys, tags, recordings (some trashed, some
 * tagged), invitations, and a user or membership given twice, both must store the same
 * items, report the same outcomes, and a second load must report everything unchanged and
 * write nothing. Each path loads into a table of its own, with the same ids and the same
 * clock, so whole tables compare.
 */
const { runtime } = localDeployment();
const T0 = new Date('2032-03-01T09:00:00.000Z');
const DAY_MS = 86_400_000;
/** Runs per test: each loads a fixture three times, and the suite runs on 2 cores in CI. */
const RUNS = 10;
const RETENTION_DAYS = 30;

const tableOf = (name: string): TableContext =>
  createTableContext({ tableName: name, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
const bulkTable = tableOf(`bulk-path-${unique()}`);
const oneEntryTable = tableOf(`one-entry-path-${unique()}`);

beforeAll(async () => {
  // No stream: nothing consumes these tables' changes.
  for (const table of [bulkTable, oneEntryTable])
    await table.client.send(new CreateTableCommand({ ...createTableInput(table.tableName), StreamSpecification: undefined }));
});
afterAll(async () => {
  for (const table of [bulkTable, oneEntryTable]) await table.client.send(new DeleteTableCommand({ TableName: table.tableName }));
});

/** What seeding did before the bulk import: every entry through its ensure function, in the same section order. */
async function seedOneEntryAtATime(db: TableContext, fixture: Fixture, now: Date): Promise<SeedSummary> {
  const summary = Object.fromEntries(
    Object.keys(fixture).map((section) => [section, { created: 0, updated: 0, unchanged: 0 }]),
  ) as SeedSummary;
  const count = (section: keyof Fixture, outcome: EnsureOutcome) => summary[section][outcome]++;
  for (const org of fixture.orgs) count('orgs', await ensureOrganization(db, org, now));
  for (const user of fixture.users) count('users', await ensureUser(db, user, now));
  for (const m of fixture.memberships)
    count(
      'memberships',
      await ensureMembership(db, { orgId: m.org_id, userId: m.user_id, role: m.role, status: m.status, memberSince: m.member_since }, now),
    );
  for (const k of fixture.api_keys)
    count('api_keys', await ensureApiKey(db, { orgId: k.org_id, userId: k.user_id, key: k.key, scopes: k.scopes }, now));
  // Tags never went in bulk: the loader's own tag section, alone.
  summary.tags = (
    await seedFixture({ db, trashRetentionDays: RETENTION_DAYS }, { ...v.parse(FixtureSchema, {}), tags: fixture.tags }, now)
  ).tags;
  for (const recording of fixture.recordings)
    count('recordings', await ensureRecording({ db, trashRetentionDays: RETENTION_DAYS }, recording, now));
  for (const invite of fixture.invites) count('invites', await ensureInvite(db, invite, now));
  for (const org of fixture.orgs) {
    await rebuildDerivedIndexes(db, org.id, now, { trashRetentionDays: RETENTION_DAYS });
    // One entry at a time moves every counter in its own transaction: nothing is left to recount.
    expect(await recountOrganization(db, org.id)).toEqual({ organization: false, memberships: 0 });
  }
  return summary;
}

type Item = Record<string, unknown>;

/** Every item of a table that names this run (its ids and emails all carry the run's mark), in key order. */
async function itemsOfRun(db: TableContext, run: string): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await db.client.send(new ScanCommand({ TableName: db.tableName, ConsistentRead: true, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.filter((item) => JSON.stringify(item).includes(run)).sort((a, b) => `${a.PK}|${a.SK}`.localeCompare(`${b.PK}|${b.SK}`));
}

/**
 * What may differ between two equal loads, by design: the random id of each write's change
 * stamp; the version a member search shard's writes are conditioned on (the one-entry path
 * moves it once per member, a rebuild once per shard), and an empty shard, which reads as no
 * shard; an organization's recording counters, which read as 0 until their first move
 * creates them (ADD). Undefined for an item that stands for nothing.
 */
function normalised(item: Item): Item | undefined {
  const copy: Item = { ...item };
  if (copy.last_change) copy.last_change = { ...(copy.last_change as Item), id: 'stamp' };
  if (String(copy.PK).endsWith('#MEMBER_SEARCH')) {
    if (copy.entry_count === 0) return undefined;
    delete copy.version;
  }
  if (copy.SK === 'ORG') {
    copy.recording_count ??= 0;
    copy.trash_count ??= 0;
  }
  return copy;
}
const comparable = (items: Item[]) => items.map(normalised).filter((item) => item !== undefined);

const drawnFixture = fc.integer({ min: 1, max: 3 }).chain((orgCount) => {
  const org = fc.nat({ max: orgCount - 1 });
  const membership = fc.record({ org, role: fc.constantFrom(...ROLES), status: fc.constantFrom(...MEMBER_STATUSES), since: fc.boolean() });
  return fc.record({
    orgCount: fc.constant(orgCount),
    users: fc.array(
      fc.record({
        memberOf: fc.uniqueArray(membership, { minLength: 1, maxLength: orgCount, selector: (m) => m.org }),
        zone: fc.constantFrom(undefined, 'Europe/Paris'),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    tags: fc.array(fc.record({ org, owner: fc.nat() }), { maxLength: 3 }),
    recordings: fc.array(
      fc.record({
        org,
        recorder: fc.nat(),
        day: fc.nat({ max: 60 }),
        trashedDaysAgo: fc.option(fc.nat({ max: 45 }), { nil: undefined }),
        tagPicks: fc.array(fc.nat(), { maxLength: 2 }),
        parts: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    keys: fc.array(
      fc.record({ org, holder: fc.option(fc.nat(), { nil: undefined }), scopes: fc.subarray([...SCOPES], { minLength: 1 }) }),
      { maxLength: 3 },
    ),
    invites: fc.array(fc.record({ org, to: fc.option(fc.nat(), { nil: undefined }), role: fc.constantFrom(...ROLES) }), { maxLength: 3 }),
    /** A membership entry given twice, as a long fixture may (the repeat goes through the one-entry path). */
    repeat: fc.option(fc.nat(), { nil: undefined }),
    /** A user given twice: the repeat goes through the one-entry path, and the user's memberships wait for the memberships section. */
    userRepeat: fc.option(fc.nat(), { nil: undefined }),
  });
});
type Drawn = typeof drawnFixture extends fc.Arbitrary<infer T> ? T : never;

/** The fixture a draw stands for, every id and email made unique to this run. */
function fixtureOf(drawn: Drawn, run: string): Fixture {
  const orgId = (o: number) => `org_eq_${run}_${o}`;
  const users = drawn.users.map((user, i) => ({
    id: `usr_eq_${run}_${i}`,
    email: `eq.${i}.${run}@example.com`,
    display_name: `Equal ${i}`,
    ...(user.zone ? { timezone: user.zone } : {}),
  }));
  const memberships = drawn.users.flatMap((user, i) =>
    user.memberOf.map((m) => ({
      org_id: orgId(m.org),
      user_id: users[i].id,
      role: m.role,
      status: m.status,
      ...(m.since ? { member_since: '2030-01-02T03:04:05.000Z' } : {}),
    })),
  );
  const membersOf = (o: number) => memberships.filter((m) => m.org_id === orgId(o));
  const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
  const tags = drawn.tags.flatMap((tag, t) => {
    const owner = pick(membersOf(tag.org), tag.owner);
    return owner ? [{ id: `tag_eq_${run}_${t}`, org_id: orgId(tag.org), user_id: owner.user_id, name: `Tag ${t}`, color: '#1f77b4' }] : [];
  });
  const recordings = drawn.recordings.flatMap((r, i) => {
    const recorder = pick(membersOf(r.org), r.recorder);
    if (!recorder) return [];
    const orgTags = tags.filter((tag) => tag.org_id === orgId(r.org));
    const createdAt = T0.getTime() - (r.day + 1) * DAY_MS - i * 60_000;
    return [
      {
        id: `rec_eq_${run}_${i}`,
        org_id: orgId(r.org),
        recorded_by: recorder.user_id,
        title: `Recording ${i}`,
        duration: 30 + i,
        language: 'en',
        tags: [...new Set(r.tagPicks.flatMap((n) => pick(orgTags, n)?.id ?? []))],
        created_at: new Date(createdAt).toISOString(),
        ...(r.trashedDaysAgo === undefined
          ? {}
          : { deleted_at: new Date(Math.max(createdAt, T0.getTime() - r.trashedDaysAgo * DAY_MS)).toISOString() }),
        ...(r.parts
          ? {
              summary: { markdown: `Notes ${i}` },
              transcript: [{ speaker: 'A', text: 'Hello.', start: 0, end: 1 }],
              action_items: [{ text: 'Follow up' }],
            }
          : {}),
      },
    ];
  });
  const apiKeys = drawn.keys.map((k, i) => {
    const holder = k.holder === undefined ? undefined : pick(membersOf(k.org), k.holder);
    return holder
      ? { org_id: orgId(k.org), user_id: holder.user_id, key: `pk_user_eq${run}x${i}`, scopes: k.scopes }
      : { org_id: orgId(k.org), key: `pk_org_eq${run}x${i}`, scopes: k.scopes };
  });
  const invited = new Set<string>();
  const invites = drawn.invites.flatMap((invite, i) => {
    const person = invite.to === undefined ? undefined : pick(users, invite.to);
    // An active member cannot be invited (ALREADY_MEMBER): a newcomer is, instead.
    const active = person && membersOf(invite.org).some((m) => m.user_id === person.id && m.status === 'active');
    const email = person && !active ? person.email : `invitee.${i}.${run}@example.com`;
    // One pending invitation per email and organization (INVITE_PENDING).
    if (invited.has(`${invite.org}|${email}`)) return [];
    invited.add(`${invite.org}|${email}`);
    return [{ id: `inv_eq_${run}_${i}`, org_id: orgId(invite.org), email, role: invite.role }];
  });
  const repeated = drawn.repeat === undefined ? [] : [memberships[drawn.repeat % memberships.length]];
  const repeatedUser = drawn.userRepeat === undefined ? [] : [users[drawn.userRepeat % users.length]];
  const input: FixtureInput = {
    orgs: Array.from({ length: drawn.orgCount }, (_, o) => ({ id: orgId(o), name: `Equal org ${o}` })),
    users: [...users, ...repeatedUser],
    memberships: [...memberships, ...repeated],
    api_keys: apiKeys,
    tags,
    recordings,
    invites,
  };
  return v.parse(FixtureSchema, input);
}

const allUnchanged = (fixture: Fixture) =>
  Object.fromEntries(Object.entries(fixture).map(([section, entries]) => [section, { created: 0, updated: 0, unchanged: entries.length }]));

describe('seedFixture in bulk, against one entry at a time', () => {
  it('stores exactly the items the one-entry path stores, with the same outcomes; a second load changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(drawnFixture, async (drawn) => {
        const run = unique();
        const fixture = fixtureOf(drawn, run);
        // Side by side: each path has its table to itself.
        const [bulk, oneByOne] = await Promise.all([
          seedFixture({ db: bulkTable, trashRetentionDays: RETENTION_DAYS }, fixture, T0),
          seedOneEntryAtATime(oneEntryTable, fixture, T0),
        ]);
        expect(bulk).toEqual(oneByOne);
        const stored = await itemsOfRun(bulkTable, run);
        expect(comparable(stored)).toEqual(comparable(await itemsOfRun(oneEntryTable, run)));

        expect(
          await seedFixture({ db: bulkTable, trashRetentionDays: RETENTION_DAYS }, fixture, new Date(T0.getTime() + 3_600_000)),
        ).toEqual(allUnchanged(fixture));
        expect(await itemsOfRun(bulkTable, run)).toEqual(stored);
      }),
      { numRuns: RUNS },
    );
  });
});
