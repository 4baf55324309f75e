/**
 * Benchmark of List users (shared/domain/members/list-members.ts `listMembers`) on
 * DynamoDB Local, for an organization of 100 active members and one of 10,000.
 *
 *   npm run bench        (or: npx tsx test/bench/list-users.bench.ts)
 *
 * For each org it measures page 1 at limit 25 and 100, the middle and last pages at limit 25 and a
 * `q` search, and reports the DynamoDB requests sent, the items DynamoDB read to answer
 * (what a deep page or a search really costs), the items returned, the read capacity
 * DynamoDB Local reports and the wall time. Results go to stdout and to
 * bench-results/list-users.json.
 *
 * DynamoDB Local runs on the same machine, so wall times show relative cost (requests
 * and items read), not production latency.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MemberStatus } from '../../shared/core/access';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { listUsers } from '../../shared/domain/members/list-users';
import { newId } from '../../shared/ids';
import type { ListUsersQuery } from '../../shared/schemas/members';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { queryAll } from '../../shared/storage/query-all';
import { rebuildMemberSearchIndex } from '../../shared/storage/member-search';
import { membershipItem, type Membership } from '../../shared/storage/membership-items';
import { searchActiveMembers } from '../../shared/storage/memberships';
import type { Organization } from '../../shared/storage/organizations';
import type { User } from '../../shared/storage/users';
import {
  batchPut,
  chunks,
  getItem,
  itemShape,
  printTable,
  reportHeader,
  secondsSince,
  timeCalls,
  wallTimes,
  withBenchTable,
  writeReport,
  type WallTimes,
} from './support/bench-harness';
import { inPool } from '../support/in-pool';
import { tallyRequests } from '../support/observe-requests';
import { startedDirectly, type SummaryRow } from './support/bench-summary';

const WARM_UPS = 3;
const RUNS = 20;
/** BatchWrite's maximum; several batches are kept in flight so 10,000 writes take seconds. */
const BATCH_SIZE = 25;
const WRITE_CONCURRENCY = 8;
/** Display-name word that a few members of each org carry, for the `q` scenario. */
const SEARCH_WORD = 'Zephyr';
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/list-users.json');

// ---------------------------------------------------------------------------------------
// Bench data

interface OrgSpec {
  orgId: string;
  name: string;
  activeMembers: number;
  members: MemberSpec[];
}

interface MemberSpec {
  user: User;
  status: MemberStatus;
}

/**
 * The members of one org: `active` active ones, of which about `searchMatches` carry
 * SEARCH_WORD in their display name, plus two pending members and one removed member,
 * two of them also carrying it (neither a page nor a search may list them).
 */
function orgSpec(input: { orgId: string; name: string; active: number; searchMatches: number }, now: Date): OrgSpec {
  const timestamp = now.toISOString();
  const matchEvery = Math.floor(input.active / input.searchMatches);
  const member = (index: number, status: MemberStatus, displayName: string): MemberSpec => {
    // A hash prefix makes email order differ from creation order, so the sort is tested.
    const prefix = createHash('sha1').update(`${input.orgId}:${index}`).digest('hex').slice(0, 8);
    const user: User = {
      user_id: newId('usr'),
      email: `${prefix}.${index}@bench.example`,
      display_name: displayName,
      timezone: 'UTC',
      created_at: timestamp,
      updated_at: timestamp,
    };
    return { user, status };
  };
  const members = Array.from({ length: input.active }, (_, index) =>
    member(index, 'active', index % matchEvery === 7 ? `${SEARCH_WORD} Member ${index}` : `Bench Member ${index}`),
  );
  members.push(
    member(input.active, 'pending', `${SEARCH_WORD} Pending ${input.active}`),
    member(input.active + 1, 'removed', `${SEARCH_WORD} Removed ${input.active + 1}`),
    member(input.active + 2, 'pending', `Bench Pending ${input.active + 2}`),
  );
  return { orgId: input.orgId, name: input.name, activeMembers: input.active, members };
}

/** The real write path: one transaction per user and per membership. Used for the small org. */
async function writeThroughDomain(db: TableContext, spec: OrgSpec, now: Date): Promise<void> {
  await createOrganization(db, { id: spec.orgId, name: spec.name }, now);
  await inPool(spec.members, WRITE_CONCURRENCY, ({ user }) =>
    createUser(db, { id: user.user_id, email: user.email, display_name: user.display_name }, now),
  );
  // One at a time: every active membership updates the same org item (its member count),
  // and concurrent transactions on one item would be refused as conflicting.
  for (const { user, status } of spec.members) {
    await addMember(db, { orgId: spec.orgId, userId: user.user_id, role: 'member', status }, now);
  }
}

/**
 * The fast write path for the large org: the items the repositories would write, put
 * with BatchWrite. `checkItemShapes` compares them with items the domain functions wrote.
 * Only the org and its memberships are written: List users reads nothing else, and the
 * user and email items would triple the setup time (DynamoDB Local writes ~800 items/s).
 */
async function writeWithBatches(db: TableContext, spec: OrgSpec, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  const organization: Organization = {
    org_id: spec.orgId,
    name: spec.name,
    active_member_count: spec.activeMembers,
    created_at: timestamp,
    updated_at: timestamp,
    member_search_index_at: timestamp,
    recording_days_index_at: timestamp,
    templates_index_at: timestamp,
  };
  const items: Record<string, unknown>[] = [{ ...keys.organization(spec.orgId), ...organization }];
  for (const { user, status } of spec.members) items.push(membershipItem(membershipOf(spec.orgId, user, status, timestamp)));
  await inPool(chunks(items, BATCH_SIZE), WRITE_CONCURRENCY, (batch) => batchPut(db, batch));
  // The member search index the membership transactions would have kept, built from the memberships.
  await rebuildMemberSearchIndex(db, spec.orgId, timestamp);
}

/** The membership addMember builds for a user. */
function membershipOf(orgId: string, user: User, status: MemberStatus, timestamp: string): Membership {
  return {
    org_id: orgId,
    user_id: user.user_id,
    email: user.email,
    display_name: user.display_name,
    role: 'member',
    status,
    member_since: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    recording_count: 0,
    latest_recording_at: null,
  };
}

/**
 * Guards the batch path against drifting from the repositories: an org and an active and
 * a pending membership written by BatchWrite must have the attributes, and value types,
 * of the same items written by the domain functions.
 */
async function checkItemShapes(db: TableContext, viaDomain: OrgSpec, viaBatch: OrgSpec): Promise<void> {
  const membershipKey = (spec: OrgSpec, status: MemberStatus) =>
    keys.membership(spec.orgId, spec.members.find((member) => member.status === status)!.user.user_id);
  const pairs: [string, Record<string, string>, Record<string, string>][] = [
    ['organization', keys.organization(viaDomain.orgId), keys.organization(viaBatch.orgId)],
    ['active membership', membershipKey(viaDomain, 'active'), membershipKey(viaBatch, 'active')],
    ['pending membership', membershipKey(viaDomain, 'pending'), membershipKey(viaBatch, 'pending')],
  ];
  for (const [what, domainKey, batchKey] of pairs) {
    const [expected, actual] = [itemShape(await getItem(db, domainKey)), itemShape(await getItem(db, batchKey))];
    if (expected !== actual) throw new Error(`Bench ${what} item differs from the repository's:\n${actual}\n${expected}`);
  }
}

// ---------------------------------------------------------------------------------------
// Measurement

/** What DynamoDB did for one listMembers call. */
interface Tally {
  requests: number;
  /** Waves of requests: a request sent after every earlier one was answered starts a new round trip. */
  roundTrips: number;
  /** When the latest answer of the current wave came (performance.now()). */
  waveEnd: number;
  itemsRead: number;
  /** undefined when DynamoDB Local reports no consumed capacity. */
  readCapacityUnits: number | undefined;
}

/**
 * Adds a middleware to the client that asks each request for its consumed capacity and
 * tallies, from each command's output, the HTTP attempts, the items read (ScannedCount
 * of a Query, COUNT queries included; 1 per GetItem that found an item) and the capacity.
 * Returns a function that hands over the tally so far and starts a new one.
 */
function instrument(db: TableContext): () => Tally {
  const emptyTally = (): Tally => ({ requests: 0, roundTrips: 0, waveEnd: -1, itemsRead: 0, readCapacityUnits: undefined });
  return tallyRequests(db, 'listUsersBenchTally', emptyTally, (tally, request) => {
    tally.requests += request.attempts;
    // Requests are observed as they are answered; one sent before the wave's last answer ran beside it.
    if (request.start >= tally.waveEnd) tally.roundTrips += 1;
    tally.waveEnd = Math.max(tally.waveEnd, request.end);
    tally.itemsRead += request.itemsRead;
    if (request.capacityUnits !== undefined) tally.readCapacityUnits = (tally.readCapacityUnits ?? 0) + request.capacityUnits;
  });
}

interface Scenario {
  label: string;
  query: ListUsersQuery;
  /** The call measured instead of listMembers: the read of every active membership `q` did before its index. */
  call?: (db: TableContext) => Promise<{ emails: string[]; total: number }>;
  /** Emails the page must hold, in order, and the total it must report. */
  expectedEmails: string[];
  expectedTotal: number;
}

/** The List users calls measured per org, with the answers they must give. */
function scenarios(spec: OrgSpec): Scenario[] {
  // The order of GSI1: GSI1SK is `${email}#${userId}`, compared as bytes (ASCII here).
  const active = spec.members
    .filter((member) => member.status === 'active')
    .map(({ user }) => user)
    .sort((a, b) => compare(`${a.email}#${a.user_id}`, `${b.email}#${b.user_id}`));
  const matches = active.filter((user) => `${user.email}\n${user.display_name}`.toLowerCase().includes(SEARCH_WORD.toLowerCase()));
  const lastPage = Math.ceil(active.length / 25);
  // The costliest unfiltered page: deep pages are read from the nearer end of the index.
  const middlePage = Math.ceil(lastPage / 2);
  const page = (users: User[], number: number, limit: number) =>
    users.slice((number - 1) * limit, number * limit).map((user) => user.email);
  return [
    { label: 'page 1, limit 25', query: { page: 1, limit: 25 }, expectedEmails: page(active, 1, 25), expectedTotal: active.length },
    { label: 'page 1, limit 100', query: { page: 1, limit: 100 }, expectedEmails: page(active, 1, 100), expectedTotal: active.length },
    {
      label: `middle page (${middlePage}), limit 25`,
      query: { page: middlePage, limit: 25 },
      expectedEmails: page(active, middlePage, 25),
      expectedTotal: active.length,
    },
    {
      label: `last page (${lastPage}), limit 25`,
      query: { page: lastPage, limit: 25 },
      expectedEmails: page(active, lastPage, 25),
      expectedTotal: active.length,
    },
    {
      label: `q=${SEARCH_WORD}, limit 25`,
      query: { page: 1, limit: 25, q: SEARCH_WORD },
      expectedEmails: page(matches, 1, 25),
      expectedTotal: matches.length,
    },
    {
      label: `q=${SEARCH_WORD}, limit 25, before the index`,
      query: { page: 1, limit: 25, q: SEARCH_WORD },
      call: async (db) => {
        const all = await searchActiveMembers(db, spec.orgId, SEARCH_WORD);
        return { emails: all.slice(0, 25).map((m) => m.email), total: all.length };
      },
      expectedEmails: page(matches, 1, 25),
      expectedTotal: matches.length,
    },
  ];
}

interface Result {
  org: string;
  active_members: number;
  scenario: string;
  query: ListUsersQuery;
  requests: number;
  round_trips: number;
  items_read: number;
  items_returned: number;
  total_reported: number;
  consumed_read_capacity_units: number | null;
  wall_ms: WallTimes;
}

/** Checks the answer once, then times RUNS calls after WARM_UPS (the JVM and sockets warm up). */
async function measure(db: TableContext, takeTally: () => Tally, spec: OrgSpec, scenario: Scenario): Promise<Result> {
  const call =
    scenario.call ??
    (async (table: TableContext) => {
      const { members, pagination } = await listUsers(table, spec.orgId, scenario.query);
      return { emails: members.map((member) => member.email), total: pagination.total };
    });
  takeTally();
  const checked = await call(db);
  // listMembers does the same reads every call, so one call's tally stands for all.
  const tally = takeTally();
  const { emails } = checked;
  if (JSON.stringify(emails) !== JSON.stringify(scenario.expectedEmails) || checked.total !== scenario.expectedTotal) {
    throw new Error(
      `${spec.name} / ${scenario.label}: got ${emails.length} members (total ${checked.total}), ` +
        `expected ${scenario.expectedEmails.length} (total ${scenario.expectedTotal}) in email order`,
    );
  }
  // The checked call above was the first warm-up.
  const times = await timeCalls(() => call(db), WARM_UPS - 1, RUNS);
  takeTally();
  return {
    org: spec.name,
    active_members: spec.activeMembers,
    scenario: scenario.label,
    query: scenario.query,
    requests: tally.requests,
    round_trips: tally.roundTrips,
    items_read: tally.itemsRead,
    items_returned: emails.length,
    total_reported: checked.total,
    consumed_read_capacity_units: tally.readCapacityUnits ?? null,
    wall_ms: wallTimes(times),
  };
}

// ---------------------------------------------------------------------------------------
// Output

function printResults(results: Result[]): void {
  const header = [
    'org',
    'scenario',
    'requests',
    'round trips',
    'items read',
    'returned',
    'total',
    'read CU',
    'median ms',
    'min ms',
    'max ms',
  ];
  const rows = results.map((r) => [
    `${r.active_members.toLocaleString('en-US')} active`,
    r.scenario,
    String(r.requests),
    String(r.round_trips),
    r.items_read.toLocaleString('en-US'),
    String(r.items_returned),
    r.total_reported.toLocaleString('en-US'),
    r.consumed_read_capacity_units === null ? 'n/a' : String(r.consumed_read_capacity_units),
    r.wall_ms.median.toFixed(1),
    r.wall_ms.min.toFixed(1),
    r.wall_ms.max.toFixed(1),
  ]);
  // Text columns align left, figures right.
  printTable(header, rows, 2);
}

// ---------------------------------------------------------------------------------------
// Helpers

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------------------------------

/**
 * What DynamoDB Local does differently from DynamoDB, as measured for these figures: it
 * pages an index Query every 1 MB read, except when the Query has a FilterExpression.
 */
const LOCAL_CAVEAT =
  'DynamoDB Local returns a filtered Query (the q search) in one response however much it reads; ' +
  'DynamoDB stops every 1 MB read, so in AWS the q search sends about 1 request per 128 read CU (per MB read).';

/** The size of an organization's member search shards: what one membership change rewrites. */
interface ShardSizes {
  shards: number;
  average_bytes: number;
  max_bytes: number;
}

async function shardSizes(db: TableContext, orgId: string): Promise<ShardSizes> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberSearchShard(orgId, 0).PK },
  });
  // The item's size as DynamoDB counts it is about its attribute names and values; the packed entries dominate.
  const sizes = items.map(
    (item) => Buffer.byteLength(JSON.stringify({ ...item, entries: undefined })) + (item.entries as Uint8Array).length,
  );
  return {
    shards: sizes.length,
    average_bytes: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
    max_bytes: Math.max(...sizes),
  };
}

/** Runs the benchmark, prints its table and writes its report; returns its results. */
async function run(): Promise<{ results: Result[]; shards: ShardSizes }> {
  // As the npm start and cli scripts do: the SDK's notice about Node 22 is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = performance.now();
  // Setup writes and the measured reads use separate clients, so only the reads are tallied.
  return withBenchTable('list-users', async ({ setupDb, benchDb }) => {
    const now = new Date();
    const small = orgSpec({ orgId: 'org_bench_small', name: 'Bench 100', active: 100, searchMatches: 5 }, now);
    const large = orgSpec({ orgId: 'org_bench_large', name: 'Bench 10k', active: 10_000, searchMatches: 5 }, now);
    const setupStarted = performance.now();
    await writeThroughDomain(setupDb, small, now);
    console.log(`${small.name}: ${small.members.length} members written through addMember in ${secondsSince(setupStarted)} s`);
    const batchStarted = performance.now();
    await writeWithBatches(setupDb, large, now);
    await checkItemShapes(setupDb, small, large);
    console.log(`${large.name}: ${large.members.length} members written with BatchWrite in ${secondsSince(batchStarted)} s`);
    const setupSeconds = secondsSince(setupStarted);
    const shards = await shardSizes(setupDb, large.orgId);
    console.log(
      `${large.name}: member search index of ${shards.shards} shards, ${shards.average_bytes} bytes on average, ${shards.max_bytes} at most`,
    );

    const takeTally = instrument(benchDb);
    const results: Result[] = [];
    for (const spec of [small, large]) {
      for (const scenario of scenarios(spec)) results.push(await measure(benchDb, takeTally, spec, scenario));
    }
    console.log(`\nlistMembers, ${WARM_UPS} warm-ups then ${RUNS} timed runs per row; every answer checked\n`);
    printResults(results);
    console.log(`\nNote: ${LOCAL_CAVEAT}`);

    const totalSeconds = secondsSince(started);
    const report = {
      ...reportHeader(WARM_UPS, RUNS),
      setup_seconds: setupSeconds,
      total_seconds: totalSeconds,
      note: LOCAL_CAVEAT,
      member_search_shards: shards,
      results,
    };
    writeReport(RESULTS_FILE, report, totalSeconds);
    return { results, shards };
  });
}

/** The `q` search and deep page rows of the benchmark table (the goals of docs/performance.md). */
export async function summary(): Promise<SummaryRow[]> {
  const { results, shards } = await run();
  const find = (activeMembers: number, label: string) => {
    const found = results.find((r) => r.active_members === activeMembers && r.scenario.startsWith(label));
    if (!found) throw new Error(`no result for ${label} at ${activeMembers}`);
    return found;
  };
  const q = `q=${SEARCH_WORD}, limit 25`;
  const before = find(10_000, `${q}, before the index`);
  const after = results.find((r) => r.active_members === 10_000 && r.scenario === q)!;
  const small = results.find((r) => r.active_members === 100 && r.scenario === q)!;
  const units = (r: Result) => r.consumed_read_capacity_units ?? Number.NaN;
  const last = find(10_000, 'last page');
  const middle = find(10_000, 'middle page');
  return [
    {
      area: 'q search',
      measure: 'List users q at 10,000: read units (before: every membership)',
      value: `${units(after)} (before ${units(before)})`,
      goal: `≤ ${(units(before) * 0.05).toFixed(1)} (5 %)`,
      met: units(after) <= units(before) * 0.05,
    },
    {
      area: 'q search',
      measure: 'List users q at 10,000: round trips',
      value: String(after.round_trips),
      goal: '≤ 2',
      met: after.round_trips <= 2,
    },
    {
      area: 'q search',
      measure: 'List users q: median ms at 10,000 / at 100',
      value: `${after.wall_ms.median.toFixed(1)} / ${small.wall_ms.median.toFixed(1)} (before ${before.wall_ms.median.toFixed(1)} at 10,000)`,
    },
    {
      area: 'q search',
      measure: 'index write per membership change at 10,000: one shard read and written',
      value: `${(shards.average_bytes / 1024).toFixed(1)} KB average, ${(shards.max_bytes / 1024).toFixed(1)} KB largest: about 1 RCU + ${Math.ceil(shards.average_bytes / 1024) * 2} WCU (transactional)`,
    },
    { area: 'deep pages', measure: `List users ${last.scenario} at 10,000: items read`, value: last.items_read.toLocaleString('en-US') },
    {
      area: 'deep pages',
      measure: `List users ${middle.scenario} at 10,000: items read`,
      value: middle.items_read.toLocaleString('en-US'),
    },
  ];
}

if (startedDirectly(__filename)) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
