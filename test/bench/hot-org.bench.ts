/**
 * The hot organization goal (docs/performance.md), on the real local deployment (`npm start`'s entry
 * point): HOT_REQUESTS concurrent Create upload URL requests (`POST
 * /api/v1/public/recordings/upload-url`, a personal key each) for one organization, all sent
 * at once, in two scenarios:
 *
 * - many: HOT_REQUESTS members send one each: only the organization's counter item is shared;
 * - one: one member sends them all: its membership's recording count is shared too, and that
 *   write is conditioned on the count read (shared/storage/recording-writes.ts), each lost
 *   race planned again by the retry loop (`committed`, 10 attempts, then 409 CONCURRENT_UPDATE).
 *
 * Goal: 0 errors and exact counts afterwards. Each scenario reports its answers by status and
 * code, p50/p99 latency, and the counts four ways: the organization's and each member's
 * counters as stored, the API's totals (List recordings' total, List users' recording_count),
 * and the recordings actually stored (a COUNT of each member's recorder index), all against
 * the 201s received.
 *
 * The retries cannot be seen from outside the deployment, so each scenario is run a second
 * time in this process: the same domain function (`createUpload`) with the same concurrency
 * against the deployment's DynamoDB Local, on a fresh organization of the same shape, its
 * DynamoDB client counting every TransactWriteItems per request and the item each cancelled
 * one was cancelled on (ConditionalCheckFailed or TransactionConflict).
 *
 * DynamoDB Local runs concurrent transactions on one item one after the other: it never
 * cancels one with TransactionConflict, as DynamoDB does when transactions overlap on an item,
 * so the organization's counter item contends less here than in AWS. Conditions that fail
 * (ConditionalCheckFailed) are the same in both.
 *
 * Run: `npx tsx test/bench/hot-org.bench.ts`. Results go to stdout and to bench-results/hot-org.json.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Scope } from '../../shared/core/access';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import type { UserKeyCaller } from '../../shared/auth/policy';
import { createUploadUrl } from '../../shared/domain/recordings/create-upload-url';
import { ROUTES } from '../../shared/routes/manifest';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { UploadUrlBody } from '../../shared/schemas/recordings';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { createRecordingObjects } from '../../shared/storage/recording-objects';
import type { LocalRuntime } from '../../infra/local/runtime-file';
import { call } from '../support/api';
import { buildOrg, type TestOrg } from '../support/org-builder';
import { percentile, printTable, reportHeader, round, secondsSince, writeReport } from './support/bench-harness';
import { inPool } from '../support/in-pool';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';
import { withLocalDeployment, type BenchDeployment } from './support/load-deployment';

const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/hot-org.json');

/** Requests sent at once for one organization. */
const HOT_REQUESTS = 200;
/** What a personal key may do (as infra/sam/sample-setup.ts's PERSONAL_KEY_SCOPES). */
const PERSONAL_KEY_SCOPES: Scope[] = ['recordings:read', 'recordings:write'];
const READER_SCOPES: Scope[] = ['users:read', 'recordings:read'];
const UPLOAD_MAX_BYTES = 1024 ** 3;

type ScenarioName = 'many' | 'one';
const SCENARIOS: Record<ScenarioName, string> = {
  many: `${HOT_REQUESTS} members, one request each`,
  one: `one member, ${HOT_REQUESTS} requests`,
};

/** An organization of a scenario: who sends each request, with which key. */
interface HotOrg {
  org: TestOrg<string, 'reader'>;
  /** One sender per request (the same member HOT_REQUESTS times in scenario one). */
  senders: { userId: string; key: string }[];
  /** The members whose counts are checked. */
  members: string[];
  fixture: FixtureInput;
}

/**
 * A scenario's organization: `many` has the staff and HOT_REQUESTS members with a personal
 * key each; `one` the staff, its member sending every request.
 */
function hotOrganization(scenario: ScenarioName, label: string): HotOrg {
  const org = buildOrg({ label, extraMembers: scenario === 'many' ? HOT_REQUESTS : 0, keys: { reader: { scopes: READER_SCOPES } } });
  const senders =
    scenario === 'many'
      ? org.extra.map((person) => ({ userId: person.id, key: generateApiKey('user_key') }))
      : Array.from({ length: HOT_REQUESTS }, () => ({ userId: org.people.member.id, key: '' }));
  if (scenario === 'one') {
    const key = generateApiKey('user_key');
    senders.forEach((sender) => (sender.key = key));
  }
  const personalKeys = [...new Map(senders.map((sender) => [sender.key, sender.userId])).entries()].map(([key, userId]) => ({
    org_id: org.org,
    user_id: userId,
    key,
    scopes: PERSONAL_KEY_SCOPES,
  }));
  return {
    org,
    senders,
    members: [...new Set(senders.map((sender) => sender.userId))],
    fixture: { ...org.fixture, api_keys: [...org.fixture.api_keys, ...personalKeys] },
  };
}

const uploadBody = (i: number) => ({ filename: `hot-${i}.m4a`, content_type: 'audio/mp4', size_bytes: 12_345 + i });

/** One answer of the burst. */
interface Answer {
  userId: string;
  status: number;
  /** The error code of a refusal. */
  code?: string;
  ms: number;
}

/** Sends every request of the burst at once, over the network, and waits for all the answers. */
async function burst(apiUrl: string, hot: HotOrg): Promise<Answer[]> {
  const url = `${apiUrl}${ROUTES.createUploadUrl.path}`;
  return Promise.all(
    hot.senders.map(async (sender, i): Promise<Answer> => {
      const start = performance.now();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${sender.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(uploadBody(i)),
        });
        const body = (await response.json().catch(() => undefined)) as { error?: string } | undefined;
        return {
          userId: sender.userId,
          status: response.status,
          code: response.ok ? undefined : (body?.error ?? 'NO_JSON_BODY'),
          ms: performance.now() - start,
        };
      } catch (error) {
        return { userId: sender.userId, status: 0, code: `NETWORK: ${(error as Error).message}`, ms: performance.now() - start };
      }
    }),
  );
}

/** The counts after a scenario, each way they can be read, against the recordings created. */
interface CountCheck {
  created: number;
  organization: { stored_counter: number; api_total: number; stored_recordings: number };
  /** Members whose counter as stored, count in List users or recordings stored differ from what they created. */
  member_mismatches: {
    user_id: string;
    created: number;
    stored_counter: number;
    api_count: number | undefined;
    stored_recordings: number;
  }[];
  exact: boolean;
}

async function storedNumber(db: TableContext, key: Record<string, string>, attribute: string): Promise<number> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  return typeof Item?.[attribute] === 'number' ? Item[attribute] : 0;
}

/** How many live recordings of a recorder its index holds (a COUNT query, every page). */
async function recorderIndexCount(db: TableContext, orgId: string, userId: string): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recorderRecordingsIndex(orgId, userId, 'LIVE').GSI2PK },
        Select: 'COUNT',
        ExclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

/** Every member's recording_count as List users answers it (pages of 100), by user id. */
async function apiMemberCounts(apiUrl: string, org: HotOrg['org']): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; ; page++) {
    const res = await call(apiUrl, 'GET', `${ROUTES.listUsers.path.replace('{orgId}', org.org)}?limit=100&page=${page}`, {
      token: org.keys.reader,
    });
    if (res.status !== 200) throw new Error(`List users answered ${res.status}: ${JSON.stringify(res.body)}`);
    for (const member of res.body.data as { user_id: string; recording_count: number }[])
      counts.set(member.user_id, member.recording_count);
    if (!res.body.pagination.has_more) return counts;
  }
}

/** The organization's recording total as List recordings answers it. */
async function apiRecordingTotal(apiUrl: string, org: HotOrg['org']): Promise<number> {
  const res = await call(apiUrl, 'GET', `${ROUTES.listRecordings.path.replace('{orgId}', org.org)}?limit=1`, { token: org.keys.reader });
  if (res.status !== 200) throw new Error(`List recordings answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.pagination.total as number;
}

/** Compares the counts, as stored, as the API gives them and as the index holds the recordings, with `createdBy` (recordings created per member). */
async function checkCounts(db: TableContext, apiUrl: string | undefined, hot: HotOrg, createdBy: Map<string, number>): Promise<CountCheck> {
  const created = [...createdBy.values()].reduce((sum, n) => sum + n, 0);
  const apiCounts = apiUrl ? await apiMemberCounts(apiUrl, hot.org) : undefined;
  const member_mismatches: CountCheck['member_mismatches'] = [];
  let storedRecordings = 0;
  for (const userId of hot.members) {
    const expected = createdBy.get(userId) ?? 0;
    const stored_counter = await storedNumber(db, keys.membership(hot.org.org, userId), 'recording_count');
    const stored_recordings = await recorderIndexCount(db, hot.org.org, userId);
    storedRecordings += stored_recordings;
    const api_count = apiCounts?.get(userId);
    if (stored_counter !== expected || stored_recordings !== expected || (apiCounts && api_count !== expected)) {
      member_mismatches.push({ user_id: userId, created: expected, stored_counter, api_count, stored_recordings });
    }
  }
  const organization = {
    stored_counter: await storedNumber(db, keys.organization(hot.org.org), 'recording_count'),
    api_total: apiUrl ? await apiRecordingTotal(apiUrl, hot.org) : Number.NaN,
    stored_recordings: storedRecordings,
  };
  const exact =
    member_mismatches.length === 0 &&
    organization.stored_counter === created &&
    organization.stored_recordings === created &&
    (apiUrl === undefined || organization.api_total === created);
  return { created, organization, member_mismatches, exact };
}

/** A burst's answers, summed up. */
interface BurstFigures {
  requests: number;
  created: number;
  /** Answers other than 201, by `status code` (status 0: no answer). */
  failures: Record<string, number>;
  latency_ms: { p50: number; p99: number; max: number };
}

function burstFigures(answers: Answer[]): BurstFigures {
  const failures: Record<string, number> = {};
  for (const answer of answers.filter((a) => a.status !== 201)) {
    const label = `${answer.status} ${answer.code}`;
    failures[label] = (failures[label] ?? 0) + 1;
  }
  const ms = answers.map((answer) => answer.ms);
  return {
    requests: answers.length,
    created: answers.filter((a) => a.status === 201).length,
    failures,
    latency_ms: { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(Math.max(...ms)) },
  };
}

const createdPerMember = (results: { userId: string; created: boolean }[]) => {
  const created = new Map<string, number>();
  for (const result of results) if (result.created) created.set(result.userId, (created.get(result.userId) ?? 0) + 1);
  return created;
};

// ---------------------------------------------------------------------------------------
// The in-process measurement of the retries

/** What one createUpload call sent: its TransactWriteItems, and the items its cancelled ones were cancelled on. */
interface CallTally {
  transactWrites: number;
  /** `<item> <reason>`, one per cancelled transaction and failing item: "ORG TransactionConflict". */
  cancellations: string[];
}

/** The kind of item a transaction entry writes, from its sort key: ORG, MEMBER, REC... */
function itemKind(entry: Record<string, { Key?: Record<string, unknown>; Item?: Record<string, unknown> } | undefined>): string {
  const write = entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck;
  const sk = (write?.Key ?? write?.Item)?.SK as string | { S?: string } | undefined;
  const text = typeof sk === 'string' ? sk : (sk?.S ?? '?');
  return text.split('#')[0];
}

/**
 * Counts, per call running under `calls`, the TransactWriteItems the client sends and why
 * each cancelled one failed (a middleware before the SDK's own, so failures are seen too).
 */
function countTransactions(db: TableContext, calls: AsyncLocalStorage<CallTally>): void {
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const tally = calls.getStore();
      if (!tally || !/^TransactWrite/.test(context.commandName ?? '')) return next(args);
      tally.transactWrites++;
      try {
        return await next(args);
      } catch (error) {
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
        const items = ((args.input as { TransactItems?: Parameters<typeof itemKind>[0][] }).TransactItems ?? []).map(itemKind);
        if (reasons)
          reasons.forEach(
            (reason, i) => reason.Code && reason.Code !== 'None' && tally.cancellations.push(`${items[i] ?? '?'} ${reason.Code}`),
          );
        else tally.cancellations.push(`? ${(error as Error).name}`);
        throw error;
      }
    },
    { step: 'initialize', name: 'countHotOrgTransactions' },
  );
}

/** The in-process run of a scenario: attempts per request, and where the cancelled transactions failed. */
interface InProcessFigures {
  requests: number;
  created: number;
  failures: Record<string, number>;
  latency_ms: { p50: number; p99: number; max: number };
  transact_writes: number;
  /** TransactWriteItems beyond the first of each request. */
  retries: number;
  attempts_per_request: { p50: number; p99: number; max: number };
  /** Cancelled transactions' failing items and reasons, counted. */
  cancellations: Record<string, number>;
  counts: CountCheck;
}

/** Runs createUpload HOT_REQUESTS times at once in this process, against the deployment's DynamoDB Local, and counts its transactions. */
async function inProcessRun(runtime: LocalRuntime, checkDb: TableContext, hot: HotOrg): Promise<InProcessFigures> {
  const db = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
  const calls = new AsyncLocalStorage<CallTally>();
  countTransactions(db, calls);
  const deps = {
    db,
    objects: createRecordingObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: runtime.s3Endpoint }),
    now: () => new Date(),
    uploads: { urlTtlSeconds: 900, maxBytes: UPLOAD_MAX_BYTES },
  };
  try {
    const results = await Promise.all(
      hot.senders.map(async (sender, i) => {
        const tally: CallTally = { transactWrites: 0, cancellations: [] };
        const caller: UserKeyCaller = {
          kind: 'user_key',
          orgId: hot.org.org,
          userId: sender.userId,
          keyId: 'key_hot_org_bench',
          role: 'member',
          scopes: PERSONAL_KEY_SCOPES,
          actor: sender.userId,
        };
        const start = performance.now();
        const outcome = await calls
          .run(tally, () => createUploadUrl(deps, caller, v.parse(UploadUrlBody, uploadBody(i))))
          .then(
            () => undefined,
            (error: Error & { statusCode?: number; code?: string }) => `${error.statusCode ?? 'thrown'} ${error.code ?? error.name}`,
          );
        return { userId: sender.userId, created: outcome === undefined, outcome, ms: performance.now() - start, tally };
      }),
    );
    const failures: Record<string, number> = {};
    for (const result of results) if (result.outcome) failures[result.outcome] = (failures[result.outcome] ?? 0) + 1;
    const cancellations: Record<string, number> = {};
    for (const reason of results.flatMap((result) => result.tally.cancellations)) cancellations[reason] = (cancellations[reason] ?? 0) + 1;
    const attempts = results.map((result) => result.tally.transactWrites);
    const ms = results.map((result) => result.ms);
    return {
      requests: results.length,
      created: results.filter((result) => result.created).length,
      failures,
      latency_ms: { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(Math.max(...ms)) },
      transact_writes: attempts.reduce((sum, n) => sum + n, 0),
      retries: attempts.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      attempts_per_request: { p50: percentile(attempts, 50), p99: percentile(attempts, 99), max: Math.max(...attempts) },
      cancellations,
      counts: await checkCounts(checkDb, undefined, hot, createdPerMember(results)),
    };
  } finally {
    db.client.destroy();
  }
}

// ---------------------------------------------------------------------------------------
// The run

export interface ScenarioResult {
  scenario: ScenarioName;
  description: string;
  organization: string;
  /** Over HTTP, through the deployment. */
  http: BurstFigures & { counts: CountCheck };
  /** The same burst in this process, to count the retries. */
  in_process: InProcessFigures;
}

/** Personal keys are checked once before the burst, so the burst meets the authorizer's cache as a member already at work would (60 s per token, as in AWS). */
async function warmAuthorizer(apiUrl: string, hot: HotOrg): Promise<void> {
  const distinct = [...new Set(hot.senders.map((sender) => sender.key))];
  await inPool(distinct, 10, async (key) => {
    const res = await fetch(`${apiUrl}${ROUTES.listPublicRecordings.path}?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`a personal key was refused before the burst: ${res.status}`);
  });
}

async function runScenario(deployment: BenchDeployment, scenario: ScenarioName): Promise<ScenarioResult> {
  const { runtime, db, seed } = deployment;
  const overHttp = hotOrganization(scenario, `hot${scenario}`);
  const inProcess = hotOrganization(scenario, `hot${scenario}proc`);
  const seeding = performance.now();
  await seed(overHttp.fixture);
  await seed(inProcess.fixture);
  console.log(`Scenario ${scenario} (${SCENARIOS[scenario]}): two organizations seeded in ${secondsSince(seeding)} s`);

  await warmAuthorizer(runtime.apiUrl, overHttp);
  console.log(`Scenario ${scenario}: ${HOT_REQUESTS} Create upload URL requests at once over HTTP`);
  const answers = await burst(runtime.apiUrl, overHttp);
  const http = burstFigures(answers);
  const counts = await checkCounts(
    db,
    runtime.apiUrl,
    overHttp,
    createdPerMember(answers.map((answer) => ({ userId: answer.userId, created: answer.status === 201 }))),
  );

  console.log(`Scenario ${scenario}: the same ${HOT_REQUESTS} createUpload calls at once in this process, counting transactions`);
  const inProcessFigures = await inProcessRun(runtime, db, inProcess);
  return {
    scenario,
    description: SCENARIOS[scenario],
    organization: overHttp.org.org,
    http: { ...http, counts },
    in_process: inProcessFigures,
  };
}

/** Module loading is not what this measures: one upload in an organization of its own loads the handler first. */
async function warmHandler(deployment: BenchDeployment): Promise<void> {
  const warm = hotOrganization('one', 'hotwarm');
  await deployment.seed(warm.fixture);
  const res = await call(deployment.runtime.apiUrl, 'POST', ROUTES.createUploadUrl.path, {
    token: warm.senders[0].key,
    body: uploadBody(0),
  });
  if (res.status !== 201) throw new Error(`Create upload URL answered ${res.status} before the burst: ${JSON.stringify(res.body)}`);
}

/** Starts the deployment and runs both scenarios on it. */
export async function runHotOrg(): Promise<ScenarioResult[]> {
  return withLocalDeployment('hot-org', { LOCAL_TTL_SWEEP_SECONDS: '0' }, async (deployment) => {
    await warmHandler(deployment);
    const results: ScenarioResult[] = [];
    for (const scenario of Object.keys(SCENARIOS) as ScenarioName[]) results.push(await runScenario(deployment, scenario));
    return results;
  });
}

// ---------------------------------------------------------------------------------------
// Report

const listed = (counts: Record<string, number>) =>
  Object.keys(counts).length
    ? Object.entries(counts)
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => `${what}: ${n}`)
        .join(', ')
    : 'none';

const countsText = (counts: CountCheck) =>
  `${counts.created} created; org counter ${counts.organization.stored_counter}, API total ${Number.isNaN(counts.organization.api_total) ? 'n/a' : counts.organization.api_total}, stored ${counts.organization.stored_recordings}; ${counts.member_mismatches.length} member(s) off`;

/** The benchmark table's rows of a run. */
export function hotOrgRows(results: ScenarioResult[]): SummaryRow[] {
  return results.flatMap(({ scenario, http, in_process: proc }) => {
    const name = `${HOT_REQUESTS} at once, ${SCENARIOS[scenario]}`;
    const failed = http.requests - http.created;
    return [
      {
        area: 'hot org',
        measure: `${name}: answers other than 201`,
        value: failed ? `${failed} (${listed(http.failures)})` : '0',
        goal: '0',
        met: failed === 0,
      },
      {
        area: 'hot org',
        measure: `${name}: p50 / p99 latency`,
        value: `${Math.round(http.latency_ms.p50)} / ${Math.round(http.latency_ms.p99)} ms`,
      },
      { area: 'hot org', measure: `${name}: counts afterwards`, value: countsText(http.counts), goal: 'exact', met: http.counts.exact },
      {
        area: 'hot org',
        measure: `${name}, in process: retries (transactions per request p50 / p99 / max)`,
        value: `${proc.retries} (${proc.attempts_per_request.p50} / ${proc.attempts_per_request.p99} / ${proc.attempts_per_request.max}); ${proc.requests - proc.created} failed`,
      },
      { area: 'hot org', measure: `${name}, in process: cancelled on`, value: listed(proc.cancellations) },
    ] satisfies SummaryRow[];
  });
}

/** Runs the benchmark, writes bench-results/hot-org.json and returns the figures with their rows. */
async function measureHotOrg(): Promise<{ results: ScenarioResult[]; rows: SummaryRow[] }> {
  const started = performance.now();
  const results = await runHotOrg();
  writeReport(RESULTS_FILE, { ...reportHeader(1, 1), requests_at_once: HOT_REQUESTS, scenarios: results }, secondsSince(started));
  return { results, rows: hotOrgRows(results) };
}

/** Runs the hot organization benchmark and returns its rows of the benchmark table (also writing bench-results/hot-org.json). */
export const summary: SummaryBench = async () => (await measureHotOrg()).rows;

function printResults(results: ScenarioResult[]): void {
  console.log(`\nHot organization: ${HOT_REQUESTS} Create upload URL requests at once for one organization\n`);
  printTable(
    [
      'scenario',
      'run',
      'created',
      'failed (status code: n)',
      'p50 ms',
      'p99 ms',
      'max ms',
      'transactions',
      'retries',
      'tx/request p50/p99/max',
      'counts exact',
    ],
    results.flatMap(({ scenario, http, in_process: proc }) => [
      [
        SCENARIOS[scenario],
        'HTTP',
        String(http.created),
        listed(http.failures),
        String(http.latency_ms.p50),
        String(http.latency_ms.p99),
        String(http.latency_ms.max),
        'n/a',
        'n/a',
        'n/a',
        http.counts.exact ? 'yes' : 'NO',
      ],
      [
        '',
        'in process',
        String(proc.created),
        listed(proc.failures),
        String(proc.latency_ms.p50),
        String(proc.latency_ms.p99),
        String(proc.latency_ms.max),
        String(proc.transact_writes),
        String(proc.retries),
        `${proc.attempts_per_request.p50} / ${proc.attempts_per_request.p99} / ${proc.attempts_per_request.max}`,
        proc.counts.exact ? 'yes' : 'NO',
      ],
    ]),
    2,
  );
  for (const { scenario, http, in_process: proc } of results) {
    console.log(`\n${SCENARIOS[scenario]}: HTTP counts: ${countsText(http.counts)}; in-process counts: ${countsText(proc.counts)}`);
    console.log(`  in-process cancellations (item reason: transactions): ${listed(proc.cancellations)}`);
    for (const mismatch of [...http.counts.member_mismatches, ...proc.counts.member_mismatches].slice(0, 10))
      console.log(`  member off: ${JSON.stringify(mismatch)}`);
  }
}

if (startedDirectly(__filename)) runAlone(measureHotOrg, ({ results }) => printResults(results));
