/**
 * The load goal (docs/performance.md), on the real local deployment (`npm start`'s entry point): autocannon
 * with 50 connections for LOAD_SECONDS (30 by default) on `GET /health`, then List users,
 * List recordings and Get settings of an organization of a few hundred members and
 * recordings, one route after the other, with a valid organization key. Goal: 0 errors and
 * 0 non-2xx answers; requests/s and p50/p99 latency are reported as ratios to /health of
 * the same run (the emulated gateway's own cost, with no handler behind it).
 *
 * The emulated gateway applies no stage throttle (infra/local/api-gateway.ts has none; the
 * stack's 50 req/s and burst 100 exist only in AWS), so nothing needs raising here.
 *
 * Run: `npx tsx test/bench/load.bench.ts` (`LOAD_SECONDS=5` for a short run). Results go to
 * stdout and to bench-results/load.json.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { ROUTES } from '../../shared/routes/manifest';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { call } from '../support/api';
import { buildOrg } from '../support/org-builder';
import { printTable, reportHeader, round, secondsSince, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';
import { withLocalDeployment } from './support/load-deployment';

const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/load.json');

/** Seconds each route is loaded; LOAD_SECONDS shortens it while developing. */
const LOAD_SECONDS = positiveNumber(process.env.LOAD_SECONDS, 30);
const CONNECTIONS = 50;
/** The organization's size: a few hundred members and recordings, as a real one. */
const EXTRA_MEMBERS = 300;
const RECORDINGS = 400;
/** Untimed requests per route before its run, so module loading and the authorizer's cache are not measured. */
const WARM_UPS = 20;

function positiveNumber(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`LOAD_SECONDS must be a number of seconds above 0 (got ${text})`);
  return value;
}

/** One loaded route: its name in the report, its path, and whether it needs the key. */
interface LoadTarget {
  name: string;
  path: string;
  authorized: boolean;
}

/** What autocannon measured on one route. */
export interface RouteLoad {
  route: string;
  path: string;
  requests: number;
  requests_per_second: number;
  latency_ms: { p50: number; p99: number; mean: number; max: number };
  errors: number;
  timeouts: number;
  non_2xx: number;
  status_codes: Record<string, number>;
  /** Against /health of the same run: requests/s and latency ratios (1 for /health itself). */
  vs_health: { requests_per_second: number; p50: number; p99: number };
}

/** The organization the routes read: the staff, EXTRA_MEMBERS members, RECORDINGS recordings, tags and the member's settings. */
function loadOrganization() {
  const org = buildOrg({ label: 'load', extraMembers: EXTRA_MEMBERS, keys: { reader: { scopes: ['users:read', 'recordings:read'] } } });
  const recorders = [org.people.owner, org.people.admin, org.people.member, ...org.extra];
  const tags = ['Sales', 'Support', 'Standup'].map((name, i) => ({
    id: `tag_load${i}_${org.id}`,
    org_id: org.org,
    user_id: org.people.member.id,
    name,
    color: '#1f77b4',
  }));
  const start = Date.parse('2026-09-01T08:00:00.000Z');
  const recordings: NonNullable<FixtureInput['recordings']> = Array.from({ length: RECORDINGS }, (_, i) => ({
    id: `rec_load${i}_${org.id}`,
    org_id: org.org,
    recorded_by: recorders[(i * 7) % recorders.length].id,
    title: `Customer call ${i}`,
    duration: 60 + ((i * 37) % 1800),
    language: i % 5 === 0 ? 'fr' : 'en',
    tags: i % 3 === 0 ? [tags[i % tags.length].id] : [],
    created_at: new Date(start + i * 3_600_000 * 5).toISOString(),
  }));
  const fixture: FixtureInput = {
    ...org.fixture,
    tags: [...org.fixture.tags, ...tags],
    recordings,
    settings: [
      { org_id: org.org, user_id: org.people.member.id, settings: { selected_theme: 'dark' }, profile: '# Mo\n\nAccount manager, EMEA.' },
    ],
  };
  return { org, fixture };
}

/** Runs autocannon on one route with CONNECTIONS connections for LOAD_SECONDS. */
async function loadRoute(apiUrl: string, target: LoadTarget, token: string): Promise<autocannon.Result> {
  return autocannon({
    url: `${apiUrl}${target.path}`,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    headers: target.authorized ? { authorization: `Bearer ${token}` } : {},
  });
}

const ratio = (value: number, reference: number) => (reference > 0 ? round(value / reference) : Number.NaN);

/** The figures of one route from autocannon's result (ratios filled in once /health is known). */
function routeLoad(target: LoadTarget, result: autocannon.Result): RouteLoad {
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]));
  return {
    route: target.name,
    path: target.path,
    requests: result.requests.total,
    requests_per_second: round(result.requests.average),
    latency_ms: { p50: result.latency.p50, p99: result.latency.p99, mean: round(result.latency.mean), max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non_2xx: result.non2xx,
    status_codes: statusCodes,
    vs_health: { requests_per_second: Number.NaN, p50: Number.NaN, p99: Number.NaN },
  };
}

/** Starts the deployment, seeds the organization, checks each route once, then loads them one after the other. */
export async function runLoad(): Promise<RouteLoad[]> {
  return withLocalDeployment('load', { LOCAL_TTL_SWEEP_SECONDS: '0' }, async ({ runtime, seed }) => {
    const { org, fixture } = loadOrganization();
    const seeding = performance.now();
    await seed(fixture);
    console.log(`Seeded ${fixture.users?.length} members and ${RECORDINGS} recordings in ${secondsSince(seeding)} s`);

    const token = org.keys.reader;
    const targets: LoadTarget[] = [
      { name: '/health', path: ROUTES.health.path, authorized: false },
      { name: 'List users', path: ROUTES.listUsers.path.replace('{orgId}', org.org), authorized: true },
      { name: 'List recordings', path: ROUTES.listRecordings.path.replace('{orgId}', org.org), authorized: true },
      {
        name: 'Get settings',
        path: ROUTES.getMemberSettings.path.replace('{orgId}', org.org).replace('{userId}', org.people.member.id),
        authorized: true,
      },
    ];
    // Each route answers 200 with a body the OpenAPI document allows before it is loaded.
    for (const target of targets) {
      const response = await call(runtime.apiUrl, 'GET', target.path, target.authorized ? { token } : {});
      if (response.status !== 200)
        throw new Error(`${target.name} answered ${response.status} before the load: ${JSON.stringify(response.body)}`);
      for (let i = 1; i < WARM_UPS; i++)
        await fetch(`${runtime.apiUrl}${target.path}`, { headers: target.authorized ? { authorization: `Bearer ${token}` } : {} }).then(
          (r) => r.arrayBuffer(),
        );
    }

    const loads: RouteLoad[] = [];
    for (const target of targets) {
      console.log(`Loading ${target.name} (${target.path}): ${CONNECTIONS} connections for ${LOAD_SECONDS} s`);
      loads.push(routeLoad(target, await loadRoute(runtime.apiUrl, target, token)));
    }
    const health = loads[0];
    for (const load of loads) {
      load.vs_health = {
        requests_per_second: ratio(load.requests_per_second, health.requests_per_second),
        p50: ratio(load.latency_ms.p50, health.latency_ms.p50),
        p99: ratio(load.latency_ms.p99, health.latency_ms.p99),
      };
    }
    return loads;
  });
}

const failures = (load: RouteLoad) => load.errors + load.non_2xx;
const times = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(2)}×`);
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

/** The benchmark table's rows for a run: per route its requests/s and latency against /health, and its failures against the goal of none. */
export function loadRows(loads: RouteLoad[]): SummaryRow[] {
  return loads.flatMap((load) => {
    const name = load.route === '/health' ? '/health' : load.route;
    const rows: SummaryRow[] = [
      {
        area: 'load',
        measure: `${name}: requests/s (× /health)`,
        value: `${thousands(load.requests_per_second)} req/s (${times(load.vs_health.requests_per_second)})`,
      },
      {
        area: 'load',
        measure: `${name}: p50 / p99 latency (× /health)`,
        value: `${load.latency_ms.p50} / ${load.latency_ms.p99} ms (${times(load.vs_health.p50)} / ${times(load.vs_health.p99)})`,
      },
      {
        area: 'load',
        measure: `${name}: errors / non-2xx of ${thousands(load.requests)} requests`,
        value: `${load.errors} / ${load.non_2xx}`,
        goal: '0 / 0',
        met: failures(load) === 0,
      },
    ];
    return rows;
  });
}

/** Runs the load benchmark, writes bench-results/load.json and returns the figures with their table rows. */
async function measureLoad(): Promise<{ loads: RouteLoad[]; rows: SummaryRow[] }> {
  const started = performance.now();
  const loads = await runLoad();
  writeReport(
    RESULTS_FILE,
    {
      ...reportHeader(WARM_UPS, 1),
      connections: CONNECTIONS,
      seconds_per_route: LOAD_SECONDS,
      organization: { members: EXTRA_MEMBERS + 4, recordings: RECORDINGS },
      routes: loads,
    },
    secondsSince(started),
  );
  return { loads, rows: loadRows(loads) };
}

/** Runs the load benchmark and returns its rows of the benchmark table (also writing bench-results/load.json). */
export const summary: SummaryBench = async () => (await measureLoad()).rows;

function printLoads(loads: RouteLoad[]): void {
  console.log(`\nLoad on the local deployment: ${CONNECTIONS} connections, ${LOAD_SECONDS} s per route, one route after the other\n`);
  printTable(
    [
      'route',
      'requests',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'timeouts',
      'non-2xx',
      'statuses',
      'req/s ×health',
      'p50 ×health',
      'p99 ×health',
    ],
    loads.map((load) => [
      load.route,
      thousands(load.requests),
      thousands(load.requests_per_second),
      String(load.latency_ms.p50),
      String(load.latency_ms.p99),
      String(load.errors),
      String(load.timeouts),
      String(load.non_2xx),
      Object.entries(load.status_codes)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', '),
      times(load.vs_health.requests_per_second),
      times(load.vs_health.p50),
      times(load.vs_health.p99),
    ]),
    1,
  );
}

if (startedDirectly(__filename)) runAlone(measureLoad, ({ loads }) => printLoads(loads));
