/**
 * Benchmark of `seed` (seedFixture, what `npx voice-org seed --file F` runs) on its own
 * DynamoDB Local: one organization with `members` members and as many recordings (one per
 * member, a tenth of them in the trash, a fifth tagged), seeded twice.
 *
 *   npx tsx test/bench/seed.bench.ts [members]      (default 10000)
 *
 * The first load creates everything, the second must report everything unchanged. After
 * each load it checks the counts the seed maintains: the organization's active member,
 * recording and trash counts, every membership's recording_count and latest_recording_at.
 * It reports the wall time and the DynamoDB requests of each load (by API), and writes
 * them to bench-results/seed.json. The requests are counted as sent, without asking for
 * their consumed capacity, which costs DynamoDB Local about a sixth more time per write and
 * the CLI's seed never asks for. `summary()` gives its rows of `npm run bench`'s table:
 * the first load's seconds against the goal (at most 30 s), the second load's
 * seconds and whether it left everything unchanged, and whether every count is exact.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Fixture } from '../../shared/schemas/fixture';
import { Fixture as FixtureSchema } from '../../shared/schemas/fixture';
import * as v from 'valibot';
import { seedFixture, type SeedSummary } from '../../shared/operator-tasks/fixture';
import { getOrganization } from '../../shared/storage/organizations';
import { membershipFromItem } from '../../shared/storage/membership-items';
import type { TableContext } from '../../shared/storage/dynamo';
import { printTable, reportHeader, round, secondsSince, withBenchTable, writeReport } from './support/bench-harness';
import { startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const DEFAULT_MEMBERS = 10_000;
/** The goal for the first load of 10,000 members and 10,000 recordings. */
const GOAL_SECONDS = 30;
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/seed.json');
const ORG = 'org_seedbench';
const T0 = new Date('2026-01-01T00:00:00.000Z');

/** The fixture: one org, `members` users and active memberships (a twentieth removed), one recording each. */
function benchFixture(members: number): Fixture {
  const pad = (i: number) => String(i).padStart(6, '0');
  const users = Array.from({ length: members }, (_, i) => ({
    id: `usr_sb_${pad(i)}`,
    email: `person.${pad(i)}@seed-bench.example.com`,
    display_name: `Person ${pad(i)}`,
  }));
  return v.parse(FixtureSchema, {
    orgs: [{ id: ORG, name: 'Seed bench' }],
    users,
    memberships: users.map((user, i) => ({
      org_id: ORG,
      user_id: user.id,
      role: i === 0 ? 'owner' : 'member',
      status: i % 20 === 19 ? 'removed' : 'active',
    })),
    tags: [{ id: 'tag_sb_a', org_id: ORG, user_id: users[0].id, name: 'Bench', color: '#1f77b4' }],
    recordings: users.map((user, i) => ({
      id: `rec_sb_${pad(i)}`,
      org_id: ORG,
      recorded_by: user.id,
      title: `Recording ${pad(i)}`,
      duration: 60 + (i % 600),
      language: 'en',
      tags: i % 5 === 0 ? ['tag_sb_a'] : [],
      created_at: new Date(T0.getTime() - (i + 1) * 60_000).toISOString(),
      ...(i % 10 === 9 ? { deleted_at: T0.toISOString() } : {}),
      ...(i % 4 === 0 ? { summary: { markdown: `Summary ${pad(i)}` } } : {}),
    })),
  }) as Fixture;
}

/**
 * Counts the client's requests by API (TransactWriteItems, BatchGetItem...). Not
 * observeRequests: it adds ReturnConsumedCapacity to every request, which would time
 * something other than the seed.
 */
function countRequestsByApi(db: TableContext): () => Record<string, number> {
  let tally: Record<string, number> = {};
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? 'Unknown').replace(/Command$/, '');
      tally[command] = (tally[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'seedBenchCount' },
  );
  return () => {
    const taken = tally;
    tally = {};
    return taken;
  };
}

/** The counts the fixture implies, to compare with the stored ones. */
function expectedCounts(fixture: Fixture) {
  const active = fixture.memberships.filter((m) => m.status === 'active').length;
  const live = fixture.recordings.filter((r) => !r.deleted_at);
  const perMember = new Map<string, { count: number; latest: string | null }>();
  for (const r of live) {
    const entry = perMember.get(r.recorded_by) ?? { count: 0, latest: null };
    entry.count++;
    if (!entry.latest || r.created_at! > entry.latest) entry.latest = r.created_at!;
    perMember.set(r.recorded_by, entry);
  }
  return { active, live: live.length, trash: fixture.recordings.length - live.length, perMember };
}

/** Checks the stored counters against the fixture; returns the mismatches (empty when exact). */
async function countMismatches(db: TableContext, fixture: Fixture): Promise<string[]> {
  const expected = expectedCounts(fixture);
  const org = await getOrganization(db, ORG);
  const problems: string[] = [];
  if (org?.active_member_count !== expected.active) problems.push(`active_member_count ${org?.active_member_count} != ${expected.active}`);
  if (org?.recording_count !== expected.live) problems.push(`recording_count ${org?.recording_count} != ${expected.live}`);
  if (org?.trash_count !== expected.trash) problems.push(`trash_count ${org?.trash_count} != ${expected.trash}`);
  let startKey: Record<string, unknown> | undefined;
  let memberships = 0;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
        ExpressionAttributeValues: { ':pk': `ORG#${ORG}`, ':sk': 'MEMBER#' },
        ExclusiveStartKey: startKey,
      }),
    );
    // Only the membership items themselves (MEMBER#<user>), not a member's settings items.
    for (const item of (page.Items ?? []).filter((entry) => String(entry.SK).split('#').length === 2)) {
      const m = membershipFromItem(item);
      memberships++;
      const want = expected.perMember.get(m.user_id) ?? { count: 0, latest: null };
      if (m.recording_count !== want.count || m.latest_recording_at !== want.latest) {
        if (problems.length < 10)
          problems.push(`${m.user_id}: ${m.recording_count}/${m.latest_recording_at} != ${want.count}/${want.latest}`);
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  if (memberships !== fixture.memberships.length)
    problems.push(`${memberships} memberships stored, ${fixture.memberships.length} in the fixture`);
  return problems;
}

/** Seeds the bench fixture twice, prints its tables, writes bench-results/seed.json, and returns the summary rows. */
async function measureSeed(MEMBERS: number): Promise<SummaryRow[]> {
  const started = performance.now();
  const fixture = benchFixture(MEMBERS);
  const report = await withBenchTable('seed', async ({ setupDb, benchDb }) => {
    const takeTally = countRequestsByApi(benchDb);
    const loads: { load: string; seconds: number; requests: Record<string, number>; summary: SeedSummary; count_mismatches: string[] }[] =
      [];
    for (const load of ['first', 'second']) {
      const start = performance.now();
      const summary = await seedFixture({ db: benchDb, trashRetentionDays: 30 }, fixture, T0);
      const seconds = secondsSince(start);
      const requests = takeTally();
      loads.push({ load, seconds, requests, summary, count_mismatches: await countMismatches(setupDb, fixture) });
      console.log(`${load} load: ${seconds} s`);
    }
    return loads;
  });
  const commands = [...new Set(report.flatMap((load) => Object.keys(load.requests)))].sort();
  console.log(`\nseed of ${MEMBERS} users, ${MEMBERS} memberships, ${MEMBERS} recordings (one org)\n`);
  printTable(
    ['load', 'seconds', 'requests', ...commands, 'counts'],
    report.map((load) => [
      load.load,
      String(load.seconds),
      String(Object.values(load.requests).reduce((sum, n) => sum + n, 0)),
      ...commands.map((command) => String(load.requests[command] ?? 0)),
      load.count_mismatches.length ? `WRONG: ${load.count_mismatches.join('; ')}` : 'exact',
    ]),
    1,
  );
  const second = report[1].summary;
  const secondChanged = Object.entries(second)
    .filter(([, outcome]) => outcome.created || outcome.updated)
    .map(([section]) => section);
  console.log(secondChanged.length ? `\nSECOND LOAD CHANGED: ${secondChanged.join(', ')}` : '\nsecond load: everything unchanged');
  writeReport(
    RESULTS_FILE,
    {
      ...reportHeader(0, 1),
      members: MEMBERS,
      recordings: MEMBERS,
      loads: report.map((load) => ({ ...load, seconds: round(load.seconds) })),
    },
    secondsSince(started),
  );
  const exact = report.every((load) => load.count_mismatches.length === 0);
  const scale = MEMBERS.toLocaleString('en-US');
  return [
    {
      area: 'seed',
      measure: `first load of ${scale} members + ${scale} recordings: seconds`,
      value: String(round(report[0].seconds)),
      goal: `≤ ${GOAL_SECONDS}`,
      met: report[0].seconds <= GOAL_SECONDS,
    },
    {
      area: 'seed',
      measure: 'second load: seconds, everything unchanged',
      value: `${round(report[1].seconds)}, ${secondChanged.length ? `changed ${secondChanged.join(', ')}` : 'unchanged'}`,
      goal: 'unchanged',
      met: secondChanged.length === 0,
    },
    { area: 'seed', measure: 'counts after each load', value: exact ? 'exact' : 'WRONG', goal: 'exact', met: exact },
  ];
}

/** Runs the seed benchmark at 10,000 members and recordings and returns its rows of the benchmark table. */
export const summary: SummaryBench = () => measureSeed(DEFAULT_MEMBERS);

if (startedDirectly(__filename)) {
  measureSeed(Number(process.argv[2] ?? DEFAULT_MEMBERS))
    .then((rows) => {
      console.log('');
      printTable(
        ['measure', 'value', 'goal', 'met'],
        rows.map((row) => [row.measure, row.value, row.goal ?? '', row.met === undefined ? '' : row.met ? 'yes' : 'NO']),
        1,
      );
      // A wrong count or a changed second load fails the run; the time goal is reported, not enforced here.
      if (rows.slice(1).some((row) => row.met === false)) process.exitCode = 1;
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
