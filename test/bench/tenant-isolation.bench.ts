/**
 * The tenant isolation goal (docs/performance.md), on the real local deployment (`npm start`'s entry point):
 * one organization over its rate limit must not slow down another.
 *
 * 1. Baseline: organization B alone sends List users (`GET /api/v1/organization/{B}/users`,
 *    its org key) at B_RATE requests/s for TRAFFIC_SECONDS, paced at fixed times (an open
 *    loop: a slow answer does not delay the next request).
 * 2. Control: the same for B while organization A, limited with the CLI's `org set-limits` to
 *    A_LIMIT, sends the same route at A_WITHIN_RATE, just within its limit.
 * 3. Flood: the same for B while A sends at A_SEND_RATE (3× its rate), paced the same way.
 *    Goals: B answered 200 every time with its p99 within B_P99_GOAL × the baseline's (noisy
 *    on a busy 2-core machine), A admitted at its rate and refused with 429 RATE_LIMITED and
 *    Retry-After otherwise, every 200 counted (it carries RateLimit headers: none let through
 *    because the counters did not answer), A's counters as stored holding exactly the requests
 *    it was answered 200 for, never more than its burst per window.
 *
 *    Locally every organization shares one Node process and one DynamoDB Local, so A's admitted
 *    requests compete with B's for the same 2 cores (in AWS they run in Lambda instances of
 *    their own): B beside A within its limit (2) against B during the flood (3) is what A's
 *    refused requests cost B.
 * 4. The limiter's cost: the counter store's `count` (createRateLimitCounters) called directly
 *    on the deployment's counter table, admitted and refused, with the consumed capacity of
 *    the same UpdateItem; and the writes per admitted and per refused request, counted by
 *    running the limiter (createTenantLimiter) in this process on A's flood, request by
 *    request on a simulated clock, with the deployment's RATE_LIMIT_CACHE_SECONDS and with 1 s.
 *
 * The deployment runs with RATE_LIMIT_DEFAULT_RATE/BURST far above B's traffic, the default
 * RATE_LIMIT_CACHE_SECONDS (30, as deployed: A's limits are set before its first request, so
 * that cache delays nothing here) and LOCAL_AUTHORIZER_CACHE_SECONDS 60 (API Gateway's
 * default): each key is checked once during the warm-up, so the authorizer is not measured.
 *
 * Run: `npx tsx test/bench/tenant-isolation.bench.ts` (`ISOLATION_SECONDS=4` for a short run).
 * Results go to stdout and to bench-results/tenant-isolation.json.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL } from '../../infra/local/local-config';
import type { LocalRuntime } from '../../infra/local/runtime-file';
import { createTenantLimiter } from '../../shared/domain/rate-limits/tenant-limiter';
import { ROUTES } from '../../shared/routes/manifest';
import { windowMillisecondsOf, type OrganizationLimits } from '../../shared/core/rate-limits';
import { counterIds, createRateLimitCounters, type RateLimitCounters } from '../../shared/storage/rate-limit-counters';
import { RATE_LIMIT_TABLE } from '../../shared/storage/rate-limit-table-definition';
import { call } from '../support/api';
import { runCli } from '../support/cli';
import { buildOrg } from '../support/org-builder';
import { percentile, printTable, reportHeader, round, secondsSince, timeCalls, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';
import { withLocalDeployment, type BenchDeployment } from './support/load-deployment';

const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/tenant-isolation.json');

/** Seconds each paced run lasts; ISOLATION_SECONDS shortens it while developing. */
const TRAFFIC_SECONDS = positiveNumber(process.env.ISOLATION_SECONDS, 10);
/** B's steady traffic, far within the defaults it runs under. */
const B_RATE = 20;
/** A's own limit (a window of 2 s admitting 40), and what it sends: 3× its rate. */
const A_LIMIT: OrganizationLimits = { rate: 20, burst: 40, daily_quota: null };
const A_SEND_RATE = 3 * A_LIMIT.rate;
/** A's rate in the control run: just within its limit (36 of 40 per window), so all of it is admitted. */
const A_WITHIN_RATE = 0.9 * A_LIMIT.rate;
/** B's p99 during the flood may be this many times its p99 alone. */
const B_P99_GOAL = 1.5;
/** The deployment's limits for every other organization: far above B's traffic. */
const DEFAULT_LIMITS = { rate: 10_000, burst: 100_000 };
/** As deployed (shared/config.ts's default): how long a full counter is remembered, at most. */
const DEPLOYMENT_CACHE_SECONDS = 30;
/** Untimed requests per organization before the runs: module loading and the authorizer (cached 60 s) are not measured. */
const WARM_UPS = 20;
/** Direct calls of the counter store, per case. */
const COUNTER_CALLS = 500;
const COUNTER_WARM_UPS = 20;

function positiveNumber(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`ISOLATION_SECONDS must be a number of seconds above 0 (got ${text})`);
  return value;
}

// ---------------------------------------------------------------------------------------
// Paced traffic over HTTP

/** One answer of a paced run. */
interface Answer {
  status: number;
  /** The error code of a refusal. */
  code?: string;
  retryAfter: string | null;
  /** Whether the answer carries RateLimit-Limit: the limiter counted it (a 200 without it was let through unlimited: the counters could not be reached). */
  counted: boolean;
  ms: number;
}

/** A paced run's answers, summed up. */
export interface TrafficFigures {
  sent: number;
  seconds: number;
  ok: number;
  /** 200s without RateLimit headers: let through because the counters did not answer (fail open, within the counter client's 1 s timeout and 2 attempts). */
  ok_uncounted: number;
  refused: number;
  /** Answers neither 200 nor 429, by `status code` (status 0: no answer). */
  others: Record<string, number>;
  /** 429s not coded RATE_LIMITED or without Retry-After. */
  malformed_refusals: number;
  ok_latency_ms: { p50: number; p99: number; max: number };
  refused_latency_ms?: { p50: number; p99: number; max: number };
}

/**
 * Sends GET `path` with `token` at `perSecond` for `seconds`, each request at its own time
 * (start + i / perSecond) whatever the earlier ones are waiting for, and returns every answer.
 */
async function pacedRequests(
  apiUrl: string,
  routePath: string,
  token: string,
  perSecond: number,
  seconds: number,
): Promise<{ answers: Answer[]; startedAt: number; endedAt: number }> {
  const total = Math.round(perSecond * seconds);
  const startedAt = Date.now();
  const started = performance.now();
  const pending: Promise<Answer>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(timedGet(`${apiUrl}${routePath}`, token));
  }
  const answers = await Promise.all(pending);
  return { answers, startedAt, endedAt: Date.now() };
}

async function timedGet(url: string, token: string): Promise<Answer> {
  const start = performance.now();
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json().catch(() => undefined)) as { error?: string } | undefined;
    return {
      status: response.status,
      code: response.ok ? undefined : (body?.error ?? 'NO_JSON_BODY'),
      retryAfter: response.headers.get('retry-after'),
      counted: response.headers.has('ratelimit-limit'),
      ms: performance.now() - start,
    };
  } catch (error) {
    return { status: 0, code: `NETWORK: ${(error as Error).message}`, retryAfter: null, counted: false, ms: performance.now() - start };
  }
}

const latency = (ms: number[]) => ({ p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(Math.max(...ms)) });

function trafficFigures(answers: Answer[], seconds: number): TrafficFigures {
  const others: Record<string, number> = {};
  for (const answer of answers.filter((a) => a.status !== 200 && a.status !== 429)) {
    const label = `${answer.status} ${answer.code}`;
    others[label] = (others[label] ?? 0) + 1;
  }
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  return {
    sent: answers.length,
    seconds,
    ok: ok.length,
    ok_uncounted: ok.filter((a) => !a.counted).length,
    refused: refused.length,
    others,
    malformed_refusals: refused.filter((a) => a.code !== 'RATE_LIMITED' || a.retryAfter === null).length,
    ok_latency_ms: ok.length ? latency(ok.map((a) => a.ms)) : { p50: Number.NaN, p99: Number.NaN, max: Number.NaN },
    refused_latency_ms: refused.length ? latency(refused.map((a) => a.ms)) : undefined,
  };
}

// ---------------------------------------------------------------------------------------
// A's counters as stored

/** A's window counters over the flood, as stored, against the requests it was answered 200 for. */
export interface CounterCheck {
  window_ms: number;
  /** request_count of each window the flood (and its answers in flight) fell in. */
  counts: number[];
  counted: number;
  admitted: number;
  exact: boolean;
}

async function checkCounters(
  counterTable: DynamoDBDocumentClient,
  orgId: string,
  startedAt: number,
  endedAt: number,
  admitted: number,
): Promise<CounterCheck> {
  const windowMs = windowMillisecondsOf(A_LIMIT);
  const counts: number[] = [];
  for (let index = Math.floor(startedAt / windowMs); index <= Math.floor(endedAt / windowMs); index++) {
    const { Item } = await counterTable.send(
      new GetCommand({
        TableName: LOCAL.rateLimitTableName,
        Key: { [RATE_LIMIT_TABLE.partitionKey]: counterIds.organizationWindow(orgId, windowMs, index) },
        ConsistentRead: true,
      }),
    );
    counts.push(typeof Item?.request_count === 'number' ? Item.request_count : 0);
  }
  const counted = counts.reduce((sum, n) => sum + n, 0);
  return { window_ms: windowMs, counts, counted, admitted, exact: counted === admitted && counts.every((n) => n <= A_LIMIT.burst) };
}

// ---------------------------------------------------------------------------------------
// The limiter's cost, in this process

export interface CounterStoreFigures {
  calls: number;
  admitted_ms: { p50: number; p99: number; max: number };
  refused_ms: { p50: number; p99: number; max: number };
  /** The UpdateItem's consumed capacity as DynamoDB Local reports it (undefined: not reported). */
  admitted_wcu: number | undefined;
  refused_wcu: number | undefined;
}

/** A document client on the counter table, as createRateLimitCounters builds its own (local credentials). */
function counterTableClient(runtime: LocalRuntime): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: runtime.region,
      endpoint: runtime.dynamoDbEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}

/** The UpdateItem of createRateLimitCounters' `count`, asking for its consumed capacity: the WCU of one admitted (or refused) request. */
async function countCapacity(client: DynamoDBDocumentClient, id: string, limit: number): Promise<number | undefined> {
  const command = new UpdateCommand({
    TableName: LOCAL.rateLimitTableName,
    Key: { [RATE_LIMIT_TABLE.partitionKey]: id },
    UpdateExpression: 'ADD #count :one SET #expires = if_not_exists(#expires, :expires)',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#count': 'request_count', '#expires': RATE_LIMIT_TABLE.ttlAttribute },
    ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil(Date.now() / 1000) + 3600 },
    ReturnValues: 'UPDATED_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    ReturnConsumedCapacity: 'TOTAL',
  });
  try {
    return (await client.send(command)).ConsumedCapacity?.CapacityUnits;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return (error as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits;
  }
}

/** `count` called directly COUNTER_CALLS times on a counter with room (admitted) and on a full one (refused: the condition fails). */
async function measureCounterStore(runtime: LocalRuntime, client: DynamoDBDocumentClient): Promise<CounterStoreFigures> {
  const counters = createRateLimitCounters({
    tableName: LOCAL.rateLimitTableName,
    region: runtime.region,
    endpoint: runtime.dynamoDbEndpoint,
  });
  const run = `${Date.now()}`;
  const endsAt = Date.now() + 3_600_000;
  const roomy = { id: `bench#isolation#roomy#${run}`, limit: 1_000_000, endsAt };
  const full = { id: `bench#isolation#full#${run}`, limit: 1, endsAt };
  await counters.count(full);
  const admittedMs = await timeCalls(
    async () => {
      if (!(await counters.count(roomy)).admitted) throw new Error('the roomy counter refused a request');
    },
    COUNTER_WARM_UPS,
    COUNTER_CALLS,
  );
  const refusedMs = await timeCalls(
    async () => {
      if ((await counters.count(full)).admitted) throw new Error('the full counter admitted a request');
    },
    COUNTER_WARM_UPS,
    COUNTER_CALLS,
  );
  return {
    calls: COUNTER_CALLS,
    admitted_ms: latency(admittedMs),
    refused_ms: latency(refusedMs),
    admitted_wcu: await countCapacity(client, roomy.id, roomy.limit),
    refused_wcu: await countCapacity(client, full.id, full.limit),
  };
}

/** The counter store's calls made by the limiter for A's flood, and the requests it admitted and refused. */
export interface WritesFigures {
  cache_seconds: number;
  requests: number;
  admitted: number;
  refused: number;
  windows: number;
  /** `count` calls (conditional writes) made for admitted requests, and for refused ones. */
  writes_admitted: number;
  writes_refused: number;
  /** Take-backs (`uncount`): only when a later limit refuses, never with one limit. */
  take_backs: number;
}

/** Wraps the counter store to tally each `count` (by its outcome) and `uncount`. */
function tallied(counters: RateLimitCounters, tally: { admitted: number; refused: number; uncounts: number }): RateLimitCounters {
  return {
    async count(counter) {
      const result = await counters.count(counter);
      if (result.admitted) tally.admitted++;
      else tally.refused++;
      return result;
    },
    async uncount(counter) {
      tally.uncounts++;
      return counters.uncount(counter);
    },
  };
}

/**
 * A's flood through the limiter in this process (one function instance), on the deployment's
 * counter table: A_SEND_RATE requests/s for TRAFFIC_SECONDS on a simulated clock, one request
 * after the other (over HTTP they are 17 ms apart and answered in a few: hardly overlapping).
 */
async function countWrites(runtime: LocalRuntime, cacheSeconds: number): Promise<WritesFigures> {
  const tally = { admitted: 0, refused: 0, uncounts: 0 };
  const windowMs = windowMillisecondsOf(A_LIMIT);
  // From a window's start, as the flood over HTTP; the organization id is new, so are its counters.
  const start = Math.ceil(Date.now() / windowMs) * windowMs;
  let now = start;
  const limiter = createTenantLimiter({
    counters: tallied(
      createRateLimitCounters({ tableName: LOCAL.rateLimitTableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint }),
      tally,
    ),
    organizationLimits: async () => A_LIMIT,
    defaults: { ...DEFAULT_LIMITS, daily_quota: null },
    cacheSeconds,
    now: () => now,
  });
  const orgId = `org_isolation_proc_${cacheSeconds}s_${Date.now()}`;
  const requests = Math.round(A_SEND_RATE * TRAFFIC_SECONDS);
  let admitted = 0;
  for (let i = 0; i < requests; i++) {
    now = start + Math.floor((i * 1000) / A_SEND_RATE);
    const outcome = await limiter.admit({ orgId, key: { id: 'key_isolation_bench' } }).then(
      () => true,
      (error: Error & { code?: string }) => {
        if (error.code !== 'RATE_LIMITED') throw error;
        return false;
      },
    );
    if (outcome) admitted++;
  }
  return {
    cache_seconds: cacheSeconds,
    requests,
    admitted,
    refused: requests - admitted,
    windows: Math.floor(now / windowMs) - Math.floor(start / windowMs) + 1,
    writes_admitted: tally.admitted,
    writes_refused: tally.refused,
    take_backs: tally.uncounts,
  };
}

// ---------------------------------------------------------------------------------------
// The run

export interface IsolationResult {
  b_alone: TrafficFigures;
  /** The control: B beside A sending within its limit (as many of A's requests answered 200 as in the flood, none refused). */
  b_beside_a_within: TrafficFigures;
  a_within: TrafficFigures;
  b_during_flood: TrafficFigures;
  a_flood: TrafficFigures;
  a_counters: CounterCheck;
  counter_store: CounterStoreFigures;
  writes: WritesFigures[];
}

/** Untimed requests, all answered 200; returns the last answer's RateLimit-Limit. */
async function warmUp(apiUrl: string, routePath: string, token: string, times: number): Promise<string | null> {
  let limit: string | null = null;
  for (let i = 0; i < times; i++) {
    const response = await fetch(`${apiUrl}${routePath}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`List users answered ${response.status} during the warm-up: ${body}`);
    limit = response.headers.get('ratelimit-limit');
  }
  return limit;
}

/** Waits until a window of A's limit has just begun, so the flood's windows are whole ones. */
async function untilNextWindow(): Promise<void> {
  const windowMs = windowMillisecondsOf(A_LIMIT);
  await sleep(Math.ceil(Date.now() / windowMs) * windowMs - Date.now() + 5);
}

async function runIsolation(deployment: BenchDeployment): Promise<IsolationResult> {
  const { runtime, dataDir, seed } = deployment;
  const orgA = buildOrg({ label: 'flooder', keys: { reader: { scopes: ['users:read'] } } });
  const orgB = buildOrg({ label: 'neighbour', keys: { reader: { scopes: ['users:read'] } } });
  await seed(orgA.fixture);
  await seed(orgB.fixture);
  const usersOf = (orgId: string) => ROUTES.listUsers.path.replace('{orgId}', orgId);

  const set = await runCli(['org', 'set-limits', '--org', orgA.org, '--rate', String(A_LIMIT.rate), '--burst', String(A_LIMIT.burst)], {
    LOCAL_DATA_DIR: dataDir,
  });
  if (set.code !== 0) throw new Error(`org set-limits failed: ${set.stderr}`);
  const got = await runCli(['org', 'get-limits', '--org', orgA.org], { LOCAL_DATA_DIR: dataDir });
  if (got.json?.source !== 'organization' || got.json?.rate !== A_LIMIT.rate || got.json?.burst !== A_LIMIT.burst)
    throw new Error(`org get-limits printed ${got.stdout}${got.stderr}`);

  const first = await call(runtime.apiUrl, 'GET', usersOf(orgB.org), { token: orgB.keys.reader });
  if (first.status !== 200) throw new Error(`List users answered ${first.status} before the runs: ${JSON.stringify(first.body)}`);
  await warmUp(runtime.apiUrl, usersOf(orgB.org), orgB.keys.reader, WARM_UPS);
  // Fewer than A's burst, in a window of their own before the flood's.
  const aLimit = await warmUp(runtime.apiUrl, usersOf(orgA.org), orgA.keys.reader, Math.min(WARM_UPS, A_LIMIT.burst / 2));
  if (aLimit !== String(A_LIMIT.burst)) throw new Error(`A's answers carry RateLimit-Limit ${aLimit}, not its own burst ${A_LIMIT.burst}`);

  console.log(`Baseline: B alone, ${B_RATE} requests/s for ${TRAFFIC_SECONDS} s`);
  const alone = await pacedRequests(runtime.apiUrl, usersOf(orgB.org), orgB.keys.reader, B_RATE, TRAFFIC_SECONDS);

  await untilNextWindow();
  console.log(`Control: B at ${B_RATE} requests/s while A sends ${A_WITHIN_RATE} requests/s, within its limit, for ${TRAFFIC_SECONDS} s`);
  const [bBeside, aWithin] = await Promise.all([
    pacedRequests(runtime.apiUrl, usersOf(orgB.org), orgB.keys.reader, B_RATE, TRAFFIC_SECONDS),
    pacedRequests(runtime.apiUrl, usersOf(orgA.org), orgA.keys.reader, A_WITHIN_RATE, TRAFFIC_SECONDS),
  ]);

  await untilNextWindow();
  console.log(
    `Flood: B at ${B_RATE} requests/s while A (limit ${A_LIMIT.rate}/s, burst ${A_LIMIT.burst}) sends ${A_SEND_RATE} requests/s, for ${TRAFFIC_SECONDS} s`,
  );
  const [bFlood, aFlood] = await Promise.all([
    pacedRequests(runtime.apiUrl, usersOf(orgB.org), orgB.keys.reader, B_RATE, TRAFFIC_SECONDS),
    pacedRequests(runtime.apiUrl, usersOf(orgA.org), orgA.keys.reader, A_SEND_RATE, TRAFFIC_SECONDS),
  ]);
  const aFigures = trafficFigures(aFlood.answers, TRAFFIC_SECONDS);

  const counterTable = counterTableClient(runtime);
  try {
    const aCounters = await checkCounters(counterTable, orgA.org, aFlood.startedAt, aFlood.endedAt, aFigures.ok);
    console.log(`The counter store called directly, ${COUNTER_CALLS} times per case`);
    const counterStore = await measureCounterStore(runtime, counterTable);
    console.log("A's flood through the limiter in this process, counting its writes");
    const writes = [await countWrites(runtime, DEPLOYMENT_CACHE_SECONDS), await countWrites(runtime, 1)];
    return {
      b_alone: trafficFigures(alone.answers, TRAFFIC_SECONDS),
      b_beside_a_within: trafficFigures(bBeside.answers, TRAFFIC_SECONDS),
      a_within: trafficFigures(aWithin.answers, TRAFFIC_SECONDS),
      b_during_flood: trafficFigures(bFlood.answers, TRAFFIC_SECONDS),
      a_flood: aFigures,
      a_counters: aCounters,
      counter_store: counterStore,
      writes,
    };
  } finally {
    counterTable.destroy();
  }
}

export async function runTenantIsolation(): Promise<IsolationResult> {
  const env = {
    LOCAL_TTL_SWEEP_SECONDS: '0',
    LOCAL_AUTHORIZER_CACHE_SECONDS: '60',
    RATE_LIMIT_DEFAULT_RATE: String(DEFAULT_LIMITS.rate),
    RATE_LIMIT_DEFAULT_BURST: String(DEFAULT_LIMITS.burst),
    RATE_LIMIT_CACHE_SECONDS: String(DEPLOYMENT_CACHE_SECONDS),
  };
  return withLocalDeployment('tenant-isolation', env, runIsolation);
}

// ---------------------------------------------------------------------------------------
// Report

const ms = (value: number) => `${value.toFixed(1)} ms`;
const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
const times = (value: number, reference: number) => `${(value / reference).toFixed(2)}×`;
const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([what, n]) => `${what}: ${n}`)
    .join(', ');
const wcu = (units: number | undefined) => (units === undefined ? 'not reported by DynamoDB Local' : `${units} WCU`);

function successRow(name: string, figures: TrafficFigures): SummaryRow {
  const other = figures.sent - figures.ok;
  return {
    area: 'isolation',
    measure: `${name}: answered 200`,
    value: `${figures.ok} of ${figures.sent} (${share(figures.ok, figures.sent)})${other ? `; ${figures.refused} × 429${Object.keys(figures.others).length ? `, ${listed(figures.others)}` : ''}` : ''}`,
    goal: '100 %',
    met: other === 0,
  };
}

/** The benchmark table's rows of a run. */
export function isolationRows(result: IsolationResult): SummaryRow[] {
  const {
    b_alone: alone,
    b_beside_a_within: beside,
    a_within: within,
    b_during_flood: during,
    a_flood: a,
    a_counters: counters,
    counter_store: store,
    writes,
  } = result;
  const bName = `B, ${B_RATE} req/s for ${TRAFFIC_SECONDS} s`;
  const aName = `A (limit ${A_LIMIT.rate}/s, burst ${A_LIMIT.burst}) sending ${A_SEND_RATE} req/s`;
  const admittedPerSecond = a.ok / a.seconds;
  const slack = A_LIMIT.burst / a.seconds;
  const p99Ratio = during.ok_latency_ms.p99 / alone.ok_latency_ms.p99;
  const [deployed, short] = writes;
  const writesPerRefusal = (w: WritesFigures) =>
    `${w.writes_refused} for ${w.refused} refused in ${w.windows} windows (${(w.writes_refused / w.windows).toFixed(1)} per window)`;
  return [
    successRow(`${bName}, alone`, alone),
    {
      area: 'isolation',
      measure: `${bName}, alone: p50 / p99 latency`,
      value: `${ms(alone.ok_latency_ms.p50)} / ${ms(alone.ok_latency_ms.p99)}`,
    },
    successRow(`${bName}, beside A at ${A_WITHIN_RATE} req/s (within its limit)`, beside),
    {
      area: 'isolation',
      measure: `${bName}, beside A at ${A_WITHIN_RATE} req/s (within its limit): p50 / p99 latency (× alone); A answered 200`,
      value: `${ms(beside.ok_latency_ms.p50)} / ${ms(beside.ok_latency_ms.p99)} (${times(beside.ok_latency_ms.p50, alone.ok_latency_ms.p50)} / ${times(beside.ok_latency_ms.p99, alone.ok_latency_ms.p99)}); A: ${within.ok} of ${within.sent}`,
    },
    successRow(`${bName}, during A's flood`, during),
    {
      area: 'isolation',
      measure:
        "200s let through uncounted (no RateLimit headers: the counters did not answer in time, fail open), A's / B's during the flood",
      value: `${a.ok_uncounted} / ${during.ok_uncounted}`,
      goal: '0 / 0',
      met: a.ok_uncounted === 0 && during.ok_uncounted === 0,
    },
    {
      area: 'isolation',
      measure: `${bName}, during A's flood: p50 / p99 latency (× alone)`,
      value: `${ms(during.ok_latency_ms.p50)} / ${ms(during.ok_latency_ms.p99)} (${times(during.ok_latency_ms.p50, alone.ok_latency_ms.p50)} / ${times(during.ok_latency_ms.p99, alone.ok_latency_ms.p99)})`,
      goal: `p99 ≤ ${B_P99_GOAL}× alone (noisy on 2 cores)`,
      met: p99Ratio <= B_P99_GOAL,
    },
    {
      area: 'isolation',
      measure: `${bName}, during A's flood: p50 / p99 × beside A within its limit (what A's refused requests cost B)`,
      value: `${times(during.ok_latency_ms.p50, beside.ok_latency_ms.p50)} / ${times(during.ok_latency_ms.p99, beside.ok_latency_ms.p99)}`,
    },
    {
      area: 'isolation',
      measure: `${aName}: admitted per second`,
      value: `${admittedPerSecond.toFixed(1)} req/s (${a.ok} in ${a.seconds} s)`,
      goal: `${A_LIMIT.rate} ± ${slack.toFixed(0)} (one burst over ${a.seconds} s)`,
      met: Math.abs(admittedPerSecond - A_LIMIT.rate) <= slack && Object.keys(a.others).length === 0,
    },
    {
      area: 'isolation',
      measure: `${aName}: refused (429 RATE_LIMITED with Retry-After)`,
      value: `${a.refused} of ${a.sent} (${share(a.refused, a.sent)})${a.malformed_refusals ? `; ${a.malformed_refusals} without RATE_LIMITED or Retry-After` : ''}`,
      goal: '≈ 2/3, all RATE_LIMITED with Retry-After',
      met: a.malformed_refusals === 0 && a.refused > 0,
    },
    {
      area: 'isolation',
      measure: `${aName}: 429 p50 / p99 latency (p50 × B's 200 alone)`,
      value: a.refused_latency_ms
        ? `${ms(a.refused_latency_ms.p50)} / ${ms(a.refused_latency_ms.p99)} (${times(a.refused_latency_ms.p50, alone.ok_latency_ms.p50)})`
        : 'no 429',
    },
    {
      area: 'isolation',
      measure: `${aName}: its window counters as stored vs its 200s`,
      value: `${counters.counted} counted / ${counters.admitted} admitted; per ${counters.window_ms / 1000} s window: ${counters.counts.join(', ')}`,
      goal: `equal, ≤ ${A_LIMIT.burst} per window`,
      met: counters.exact,
    },
    {
      area: 'isolation',
      measure: `counter write (count, admitted), called directly ${store.calls}×: p50 / p99 = latency added per admitted request`,
      value: `${ms(store.admitted_ms.p50)} / ${ms(store.admitted_ms.p99)} (${share(store.admitted_ms.p50, alone.ok_latency_ms.p50)} of B's List users p50 alone)`,
    },
    {
      area: 'isolation',
      measure: `counter write refused (condition failed), called directly ${store.calls}×: p50 / p99`,
      value: `${ms(store.refused_ms.p50)} / ${ms(store.refused_ms.p99)}`,
    },
    {
      area: 'isolation',
      measure: 'counter write: consumed capacity (admitted / refused)',
      value: `${wcu(store.admitted_wcu)} / ${wcu(store.refused_wcu)}${store.refused_wcu === undefined ? ' (a failed condition costs 1 WCU in AWS too)' : ''}`,
    },
    {
      area: 'isolation',
      measure: 'extra writes per admitted request',
      value: `1 (2 with a daily quota, +1 with a key limit); counted in process: ${deployed.writes_admitted} writes for ${deployed.admitted} admitted`,
      goal: '1 per counter',
      met: deployed.writes_admitted === deployed.admitted && deployed.take_backs === 0,
    },
    {
      area: 'isolation',
      measure: `writes per refused request, A's flood in one instance, RATE_LIMIT_CACHE_SECONDS ${deployed.cache_seconds}`,
      value: `${writesPerRefusal(deployed)}: 0 after the first refusal of a window`,
      goal: '1 per window',
      met: deployed.writes_refused === deployed.windows,
    },
    {
      area: 'isolation',
      measure: `writes per refused request, the same with RATE_LIMIT_CACHE_SECONDS ${short.cache_seconds}`,
      value: writesPerRefusal(short),
    },
  ];
}

async function measureTenantIsolation(): Promise<{ result: IsolationResult; rows: SummaryRow[] }> {
  const started = performance.now();
  const result = await runTenantIsolation();
  writeReport(
    RESULTS_FILE,
    {
      ...reportHeader(WARM_UPS, 1),
      seconds: TRAFFIC_SECONDS,
      b_rate: B_RATE,
      a_limit: A_LIMIT,
      a_send_rate: A_SEND_RATE,
      deployment: { default_limits: DEFAULT_LIMITS, rate_limit_cache_seconds: DEPLOYMENT_CACHE_SECONDS, authorizer_cache_seconds: 60 },
      ...result,
    },
    secondsSince(started),
  );
  return { result, rows: isolationRows(result) };
}

/** Runs the tenant isolation benchmark and returns its rows of the benchmark table (also writing bench-results/tenant-isolation.json). */
export const summary: SummaryBench = async () => (await measureTenantIsolation()).rows;

function printResult(result: IsolationResult): void {
  console.log(
    `\nTenant isolation: B at ${B_RATE} req/s alone, then while A (limit ${A_LIMIT.rate}/s, burst ${A_LIMIT.burst}) sends ${A_SEND_RATE} req/s; ${TRAFFIC_SECONDS} s each\n`,
  );
  const line = (name: string, f: TrafficFigures) => [
    name,
    String(f.sent),
    String(f.ok),
    String(f.ok_uncounted),
    String(f.refused),
    listed(f.others) || '0',
    String(f.ok_latency_ms.p50),
    String(f.ok_latency_ms.p99),
    f.refused_latency_ms ? String(f.refused_latency_ms.p50) : '',
    f.refused_latency_ms ? String(f.refused_latency_ms.p99) : '',
  ];
  printTable(
    ['run', 'sent', '200', '200 uncounted', '429', 'other', '200 p50 ms', '200 p99 ms', '429 p50 ms', '429 p99 ms'],
    [
      line('B alone', result.b_alone),
      line('B beside A within', result.b_beside_a_within),
      line(`A at ${A_WITHIN_RATE}/s`, result.a_within),
      line('B during flood', result.b_during_flood),
      line(`A flood ${A_SEND_RATE}/s`, result.a_flood),
    ],
    1,
  );
  console.log('');
  printTable(
    ['limiter in process', 'requests', 'admitted', 'refused', 'windows', 'writes admitted', 'writes refused', 'take-backs'],
    result.writes.map((w) => [
      `cache ${w.cache_seconds} s`,
      String(w.requests),
      String(w.admitted),
      String(w.refused),
      String(w.windows),
      String(w.writes_admitted),
      String(w.writes_refused),
      String(w.take_backs),
    ]),
    1,
  );
}

if (startedDirectly(__filename)) runAlone(measureTenantIsolation, ({ result }) => printResult(result));
