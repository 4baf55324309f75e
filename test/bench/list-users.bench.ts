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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoDbLocal, type Emulator } from '../../infra/local/emulators';
import type { MemberStatus } from '../../shared/auth/access';
import { addMember, createOrganization, createUser } from '../../shared/domain/admin/directory';
import { listMembers } from '../../shared/domain/members/list-members';
import { newId } from '../../shared/ids';
import type { ListUsersQuery } from '../../shared/schemas/members';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { membershipItem, type Membership } from '../../shared/storage/memberships';
import type { Organization } from '../../shared/storage/organizations';
import type { User } from '../../shared/storage/users';

const REGION = 'us-east-1';
const TABLE_NAME = 'bench-list-users';
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
  };
  const items: Record<string, unknown>[] = [{ ...keys.organization(spec.orgId), ...organization }];
  for (const { user, status } of spec.members) items.push(membershipItem(membershipOf(spec.orgId, user, status, timestamp)));
  await inPool(chunks(items, BATCH_SIZE), WRITE_CONCURRENCY, (batch) => batchPut(db, batch));
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

/** Puts up to 25 items, retrying whatever DynamoDB leaves unprocessed. */
async function batchPut(db: TableContext, items: Record<string, unknown>[]): Promise<void> {
  let requests = items.map((Item) => ({ PutRequest: { Item } }));
  while (requests.length > 0) {
    const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: requests } }));
    requests = (UnprocessedItems?.[db.tableName] ?? []).flatMap((request) =>
      request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : [],
    );
  }
}

/**
 * Guards the batch path against drifting from the repositories: an org and an active and
 * a pending membership written by BatchWrite must have the attributes, and value types,
 * of the same items written by the domain functions.
 */
async function checkItemShapes(db: TableContext, viaDomain: OrgSpec, viaBatch: OrgSpec): Promise<void> {
  const shapeOf = (item: Record<string, unknown> | undefined) =>
    JSON.stringify(Object.entries(item ?? {}).map(([name, value]) => `${name}:${value === null ? 'null' : typeof value}`).sort());
  const get = async (key: Record<string, string>) =>
    (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;
  const membershipKey = (spec: OrgSpec, status: MemberStatus) =>
    keys.membership(spec.orgId, spec.members.find((member) => member.status === status)!.user.user_id);
  const pairs: [string, Record<string, string>, Record<string, string>][] = [
    ['organization', keys.organization(viaDomain.orgId), keys.organization(viaBatch.orgId)],
    ['active membership', membershipKey(viaDomain, 'active'), membershipKey(viaBatch, 'active')],
    ['pending membership', membershipKey(viaDomain, 'pending'), membershipKey(viaBatch, 'pending')],
  ];
  for (const [what, domainKey, batchKey] of pairs) {
    const [expected, actual] = [shapeOf(await get(domainKey)), shapeOf(await get(batchKey))];
    if (expected !== actual) throw new Error(`Bench ${what} item differs from the repository's:\n${actual}\n${expected}`);
  }
}

// ---------------------------------------------------------------------------------------
// Measurement

/** What DynamoDB did for one listMembers call. */
interface Tally {
  requests: number;
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
  let tally: Tally = { requests: 0, itemsRead: 0, readCapacityUnits: undefined };
  db.client.middlewareStack.add(
    (next) => async (args) => {
      const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const result = await next({ ...args, input: input as typeof args.input });
      const output = result.output as {
        $metadata?: { attempts?: number };
        ScannedCount?: number;
        Item?: unknown;
        ConsumedCapacity?: { CapacityUnits?: number };
      };
      tally.requests += output.$metadata?.attempts ?? 1;
      tally.itemsRead += output.ScannedCount ?? (output.Item ? 1 : 0);
      const units = output.ConsumedCapacity?.CapacityUnits;
      if (units !== undefined) tally.readCapacityUnits = (tally.readCapacityUnits ?? 0) + units;
      return result;
    },
    { step: 'initialize', name: 'listUsersBenchTally' },
  );
  return () => {
    const taken = tally;
    tally = { requests: 0, itemsRead: 0, readCapacityUnits: undefined };
    return taken;
  };
}

interface Scenario {
  label: string;
  query: ListUsersQuery;
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
  ];
}

interface Result {
  org: string;
  active_members: number;
  scenario: string;
  query: ListUsersQuery;
  requests: number;
  items_read: number;
  items_returned: number;
  total_reported: number;
  consumed_read_capacity_units: number | null;
  wall_ms: { median: number; min: number; max: number; runs: number };
}

/** Checks the answer once, then times RUNS calls after WARM_UPS (the JVM and sockets warm up). */
async function measure(db: TableContext, takeTally: () => Tally, spec: OrgSpec, scenario: Scenario): Promise<Result> {
  takeTally();
  const checked = await listMembers(db, spec.orgId, scenario.query);
  // listMembers does the same reads every call, so one call's tally stands for all.
  const tally = takeTally();
  const emails = checked.members.map((member) => member.email);
  if (JSON.stringify(emails) !== JSON.stringify(scenario.expectedEmails) || checked.pagination.total !== scenario.expectedTotal) {
    throw new Error(
      `${spec.name} / ${scenario.label}: got ${emails.length} members (total ${checked.pagination.total}), ` +
        `expected ${scenario.expectedEmails.length} (total ${scenario.expectedTotal}) in email order`,
    );
  }
  // The checked call above was the first warm-up.
  for (let run = 0; run < WARM_UPS - 1; run++) await listMembers(db, spec.orgId, scenario.query);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await listMembers(db, spec.orgId, scenario.query);
    times.push(performance.now() - start);
  }
  takeTally();
  return {
    org: spec.name,
    active_members: spec.activeMembers,
    scenario: scenario.label,
    query: scenario.query,
    requests: tally.requests,
    items_read: tally.itemsRead,
    items_returned: checked.members.length,
    total_reported: checked.pagination.total,
    consumed_read_capacity_units: tally.readCapacityUnits ?? null,
    wall_ms: { median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)), runs: RUNS },
  };
}

// ---------------------------------------------------------------------------------------
// Output

function printTable(results: Result[]): void {
  const header = ['org', 'scenario', 'requests', 'items read', 'returned', 'total', 'read CU', 'median ms', 'min ms', 'max ms'];
  const rows = results.map((r) => [
    `${r.active_members.toLocaleString('en-US')} active`,
    r.scenario,
    String(r.requests),
    r.items_read.toLocaleString('en-US'),
    String(r.items_returned),
    r.total_reported.toLocaleString('en-US'),
    r.consumed_read_capacity_units === null ? 'n/a' : String(r.consumed_read_capacity_units),
    r.wall_ms.median.toFixed(1),
    r.wall_ms.min.toFixed(1),
    r.wall_ms.max.toFixed(1),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  // Text columns align left, figures right.
  const line = (cells: string[]) => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  rows.forEach((row) => console.log(line(row)));
}

// ---------------------------------------------------------------------------------------
// Helpers

/** Runs `task` over `items`, at most `concurrency` at a time. */
async function inPool<T>(items: T[], concurrency: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const round = (ms: number) => Math.round(ms * 100) / 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const seconds = (since: number) => round((performance.now() - since) / 1000);

// ---------------------------------------------------------------------------------------

/**
 * What DynamoDB Local does differently from DynamoDB, as measured for these figures: it
 * pages an index Query every 1 MB read, except when the Query has a FilterExpression.
 */
const LOCAL_CAVEAT =
  'DynamoDB Local returns a filtered Query (the q search) in one response however much it reads; ' +
  'DynamoDB stops every 1 MB read, so in AWS the q search sends about 1 request per 128 read CU (per MB read).';

async function main(): Promise<void> {
  // As the npm start and cli scripts do: the SDK's notice about Node 22 is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = performance.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'list-users-bench-'));
  let dynamo: Emulator | undefined;
  // Setup writes and the measured reads use separate clients, so only the reads are tallied.
  const contexts: TableContext[] = [];
  let cleanUp: Promise<void> | undefined;
  const cleanUpOnce = () =>
    (cleanUp ??= (async () => {
      contexts.forEach((db) => db.client.destroy());
      await dynamo?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  // Ctrl-C or a kill must not leave DynamoDB Local running or its files in the temp dir.
  const onSignal = (signal: NodeJS.Signals) => void cleanUpOnce().finally(() => process.exit(128 + os.constants.signals[signal]));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    dynamo = await startDynamoDbLocal(dataDir, '127.0.0.1');
    await ensureTable(dynamo.endpoint, TABLE_NAME, REGION);
    const setupDb = createTableContext({ tableName: TABLE_NAME, region: REGION, endpoint: dynamo.endpoint });
    const benchDb = createTableContext({ tableName: TABLE_NAME, region: REGION, endpoint: dynamo.endpoint });
    contexts.push(setupDb, benchDb);
    console.log(`DynamoDB Local started at ${dynamo.endpoint} in ${seconds(started)} s`);

    const now = new Date();
    const small = orgSpec({ orgId: 'org_bench_small', name: 'Bench 100', active: 100, searchMatches: 5 }, now);
    const large = orgSpec({ orgId: 'org_bench_large', name: 'Bench 10k', active: 10_000, searchMatches: 5 }, now);
    const setupStarted = performance.now();
    await writeThroughDomain(setupDb, small, now);
    console.log(`${small.name}: ${small.members.length} members written through addMember in ${seconds(setupStarted)} s`);
    const batchStarted = performance.now();
    await writeWithBatches(setupDb, large, now);
    await checkItemShapes(setupDb, small, large);
    console.log(`${large.name}: ${large.members.length} members written with BatchWrite in ${seconds(batchStarted)} s`);
    const setupSeconds = seconds(setupStarted);

    const takeTally = instrument(benchDb);
    const results: Result[] = [];
    for (const spec of [small, large]) {
      for (const scenario of scenarios(spec)) results.push(await measure(benchDb, takeTally, spec, scenario));
    }
    console.log(`\nlistMembers, ${WARM_UPS} warm-ups then ${RUNS} timed runs per row; every answer checked\n`);
    printTable(results);
    console.log(`\nNote: ${LOCAL_CAVEAT}`);

    const totalSeconds = seconds(started);
    mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    const report = {
      generated_at: new Date().toISOString(),
      node: process.version,
      warm_ups: WARM_UPS,
      runs: RUNS,
      setup_seconds: setupSeconds,
      total_seconds: totalSeconds,
      note: LOCAL_CAVEAT,
      results,
    };
    writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nResults written to ${path.relative(process.cwd(), RESULTS_FILE)}; total run time ${totalSeconds} s`);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await cleanUpOnce();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
