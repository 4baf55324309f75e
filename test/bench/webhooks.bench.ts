/**
 * Benchmark of webhook delivery through a local deployment (the figures of docs/webhooks.md), with a receiver on loopback that answers 200 at once.
 *
 *   npx tsx test/bench/webhooks.bench.ts [templates=100] [lagSamples=100]
 *
 * It starts its own deployment (`npm start`'s entry point on a temp data directory, queue
 * delays as asked: LOCAL_QUEUE_DELAY_SCALE 1) and measures:
 * 1. Throughput: one organization with 10 endpoints (the limit) subscribed to `*`; `templates`
 *    templates are created through the API, 10 requests in flight, so 10 × `templates`
 *    deliveries are due. Deliveries per second from the first arrival to the last (and from
 *    the first API call to the last arrival), and whether each endpoint got each event once.
 *    When the last `template.created` event and the last of the deliveries'
 *    `webhook.delivery_due` events reached the local bus (events.jsonl) splits the time between
 *    the stream and processor, the fan-out (and the stream again), and the dispatcher.
 * 2. Lag: another organization with one endpoint; `lagSamples` templates created one at a
 *    time, each after the previous delivery arrived and a pause; for each, the time from
 *    just before the API call to the delivery's arrival: p50, p95, max.
 * 3. The retry schedule as implemented (shared/domain/webhooks/retry-schedule.ts).
 *
 * Everything runs on this machine: DynamoDB Local on Java, the stream read every 100 ms when
 * idle, the fan-out and dispatcher consumers in the API's process, one batch of 10 messages
 * at a time per consumer. In AWS, Lambda polls the stream and the queues itself and runs
 * batches in parallel: these are the local pipeline's figures. Results go to stdout and to
 * bench-results/webhooks.json.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_DELIVERY_ATTEMPTS, RETRY_SCHEDULE_SECONDS } from '../../shared/domain/webhooks/retry-schedule';
import { WEBHOOK_LIMITS } from '../../shared/schemas/webhooks';
import { startLocalDeployment, stopLocalDeployment } from '../support/local-deployment';
import { percentile, printTable, round, secondsSince, writeReport } from './support/bench-harness';
import { inPool } from '../support/in-pool';

const TEMPLATES = Number(process.argv[2] ?? 100);
const LAG_SAMPLES = Number(process.argv[3] ?? 100);
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/webhooks.json');
/** API requests in flight while the throughput events are caused. */
const CONCURRENCY = 10;
/** Lag: the pause after a delivery arrived before the next event, so that each is measured alone. */
const LAG_PAUSE_MS = 100;
/** How long to wait for deliveries before reporting the ones missing. */
const DELIVERY_TIMEOUT_MS = 120_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request the receiver got: on which endpoint path, for which event, when (performance.now()). */
interface Arrival {
  endpoint: string;
  eventId: string;
  type: string;
  resourceId: string;
  at: number;
}

/** A receiver on loopback answering 200 at once; endpoint i is http://127.0.0.1:<port>/ep<i>. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(200).end();
      const event = JSON.parse(body) as { id: string; type: string; resource: { id: string } };
      arrivals.push({ endpoint: request.url ?? '', eventId: event.id, type: event.type, resourceId: event.resource.id, at });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    arrivals,
    urlOf: (endpoint: string) => `${base}/${endpoint}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  // A data directory of its own, removed whether the deployment starts or not.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-'));
  const deployment = await startLocalDeployment({ dataDir, env: { LOG_LEVEL: 'ERROR', LOCAL_TTL_SWEEP_SECONDS: '0' } }).catch(
    (error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    },
  );
  const receiver = await startReceiver();
  const stop = async () => {
    await receiver.close();
    await stopLocalDeployment(deployment.child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    // The test support reads the deployment from this variable (seeding).
    process.env.TEST_LOCAL_DATA_DIR = deployment.dataDir;
    const { buildOrg, seedOrg } = await import('../support/org-builder');
    const key = { scopes: ['webhooks:read' as const, 'webhooks:write' as const, 'templates:write' as const] };
    const [wide, single] = await Promise.all([
      seedOrg(buildOrg({ label: 'benchwide', keys: { api: key } })),
      seedOrg(buildOrg({ label: 'benchlag', keys: { api: key } })),
    ]);
    const { apiUrl } = deployment.runtime;
    const api = async (orgId: string, key: string, method: string, route: string, body?: unknown) => {
      const response = await fetch(`${apiUrl}/api/v1/organization/${orgId}${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const createTemplate = (org: { org: string; keys: { api: string } }, name: string) =>
      api(org.org, org.keys.api, 'POST', '/templates', { name, sections: [{ title: 't', prompt: 'p' }] }) as Promise<{ id: string }>;
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
      while (!done() && Date.now() < deadline) await pause(10);
    };

    // 1. Throughput: every template.created event goes to each of the 10 endpoints.
    const endpoints = Array.from({ length: WEBHOOK_LIMITS.endpointsPerOrganization }, (_, i) => `ep${i}`);
    for (const endpoint of endpoints)
      await api(wide.org, wide.keys.api, 'POST', '/webhooks', { url: receiver.urlOf(endpoint), events: ['*'] });
    // The endpoints' own webhook.created events (1 + 2 + … + 10 deliveries) arrive first; then quiet.
    const setupDeliveries = (endpoints.length * (endpoints.length + 1)) / 2;
    await until(() => receiver.arrivals.length >= setupDeliveries);
    await pause(1_000);
    const throughputFrom = receiver.arrivals.length;

    // Milestones on the local bus (events.jsonl): every template.created event on it (the stream
    // and processor's part done), every delivery's webhook.delivery_due on it (the fan-out's part
    // done, the dispatcher's to do).
    const busFile = path.join(dataDir, 'events.jsonl');
    const onBus = (type: string) => (existsSync(busFile) ? readFileSync(busFile, 'utf8').split(`"type":"${type}"`).length - 1 : 0);
    const before = { created: onBus('template.created'), due: onBus('webhook.delivery_due') };
    const milestones: { allCreatedAt?: number; allDueAt?: number } = {};
    let watching = true;
    const busWatch = (async () => {
      while (milestones.allDueAt === undefined && watching) {
        const now = performance.now();
        if (milestones.allCreatedAt === undefined && onBus('template.created') - before.created >= TEMPLATES) milestones.allCreatedAt = now;
        if (onBus('webhook.delivery_due') - before.due >= TEMPLATES * WEBHOOK_LIMITS.endpointsPerOrganization) milestones.allDueAt = now;
        else await pause(100);
      }
    })();

    const firstCall = performance.now();
    const templateIds = new Set<string>();
    await inPool(
      Array.from({ length: TEMPLATES }, (_, i) => i),
      CONCURRENCY,
      async (i) => templateIds.add((await createTemplate(wide, `Bench ${i}`)).id),
    );
    const lastAnswer = performance.now();
    const expected = TEMPLATES * endpoints.length;
    const ofRun = () =>
      receiver.arrivals.slice(throughputFrom).filter((a) => a.type === 'template.created' && templateIds.has(a.resourceId));
    await until(() => ofRun().length >= expected);
    await pause(1_000); // anything arriving twice arrives now
    const run = ofRun();
    await Promise.race([busWatch, pause(5_000)]);
    watching = false;
    const distinct = new Set(run.map((a) => `${a.endpoint} ${a.eventId}`)).size;
    const firstArrival = Math.min(...run.map((a) => a.at));
    const lastArrival = Math.max(...run.map((a) => a.at));
    const throughput = {
      templates: TEMPLATES,
      endpoints: endpoints.length,
      deliveries_expected: expected,
      deliveries_arrived: run.length,
      distinct_endpoint_events: distinct,
      api_calls_seconds: round((lastAnswer - firstCall) / 1000),
      first_to_last_arrival_seconds: round((lastArrival - firstArrival) / 1000),
      first_call_to_last_arrival_seconds: round((lastArrival - firstCall) / 1000),
      deliveries_per_second: round(run.length / ((lastArrival - firstArrival) / 1000)),
      deliveries_per_second_from_first_call: round(run.length / ((lastArrival - firstCall) / 1000)),
      all_template_created_on_bus_seconds:
        milestones.allCreatedAt === undefined ? null : round((milestones.allCreatedAt - firstCall) / 1000),
      all_delivery_due_on_bus_seconds: milestones.allDueAt === undefined ? null : round((milestones.allDueAt - firstCall) / 1000),
      load_average_1min: round(os.loadavg()[0]),
    };

    // 2. Lag, one event at a time to one endpoint subscribed to template.created.
    await api(single.org, single.keys.api, 'POST', '/webhooks', { url: receiver.urlOf('lag'), events: ['template.created'] });
    const lags: number[] = [];
    let lagMissing = 0;
    for (let i = 0; i < LAG_SAMPLES; i++) {
      const before = performance.now();
      const { id } = await createTemplate(single, `Lag ${i}`);
      const arrived = () => receiver.arrivals.find((a) => a.endpoint === '/lag' && a.resourceId === id);
      await until(() => arrived() !== undefined);
      const arrival = arrived();
      if (arrival) lags.push(arrival.at - before);
      else lagMissing++;
      await pause(LAG_PAUSE_MS);
    }
    const lag = {
      samples: lags.length,
      missing: lagMissing,
      p50_ms: round(percentile(lags, 50)),
      p95_ms: round(percentile(lags, 95)),
      max_ms: round(Math.max(...lags)),
      min_ms: round(Math.min(...lags)),
    };

    // 3. The retry schedule: when each attempt is due, counted from the first.
    let elapsed = 0;
    const schedule = [
      { attempt: 1, after_previous_seconds: 0, since_first_seconds: 0 },
      ...RETRY_SCHEDULE_SECONDS.map((seconds, i) => ({
        attempt: i + 2,
        after_previous_seconds: seconds,
        since_first_seconds: (elapsed += seconds),
      })),
    ];

    console.log(
      `\nThroughput: ${TEMPLATES} templates created (${CONCURRENCY} requests in flight) → ${expected} deliveries to ${endpoints.length} endpoints\n`,
    );
    printTable(
      ['figure', 'value'],
      [
        ['deliveries arrived / expected', `${run.length} / ${expected}`],
        ['distinct (endpoint, event) pairs', String(distinct)],
        ['API calls took (s)', String(throughput.api_calls_seconds)],
        ['first to last arrival (s)', String(throughput.first_to_last_arrival_seconds)],
        ['first call to last arrival (s)', String(throughput.first_call_to_last_arrival_seconds)],
        ['deliveries/s (first to last arrival)', String(throughput.deliveries_per_second)],
        ['deliveries/s (first call to last arrival)', String(throughput.deliveries_per_second_from_first_call)],
        ['all template.created events on the bus after (s)', String(throughput.all_template_created_on_bus_seconds ?? 'not seen')],
        ['all webhook.delivery_due events on the bus after (s)', String(throughput.all_delivery_due_on_bus_seconds ?? 'not seen')],
        [`load average (1 min, ${os.availableParallelism()} cores)`, String(throughput.load_average_1min)],
      ],
      1,
    );
    console.log(`\nLag from just before the API call to the delivery's arrival, ${lag.samples} single events (${lag.missing} missing)\n`);
    printTable(['p50 ms', 'p95 ms', 'max ms', 'min ms'], [[lag.p50_ms, lag.p95_ms, lag.max_ms, lag.min_ms].map(String)], 0);
    console.log(
      `\nRetry schedule as implemented: ${MAX_DELIVERY_ATTEMPTS} attempts, each delay ±10 % jitter (then the delivery is failed)\n`,
    );
    printTable(
      ['attempt', 'after previous', 'since first'],
      schedule.map((step) => [String(step.attempt), duration(step.after_previous_seconds), duration(step.since_first_seconds)]),
      0,
    );
    writeReport(
      RESULTS_FILE,
      {
        generated_at: new Date().toISOString(),
        node: process.version,
        concurrency: CONCURRENCY,
        throughput,
        lag,
        retry_schedule: { max_attempts: MAX_DELIVERY_ATTEMPTS, jitter: '±10 %', attempts: schedule },
      },
      secondsSince(started),
    );
    if (run.length !== expected || distinct !== expected || lagMissing) process.exitCode = 1;
  } finally {
    await stop();
  }
}

/** 5 s, 5 min, 2 h, 1 d 6 h 42 min 5 s. */
function duration(seconds: number): string {
  if (seconds === 0) return '0';
  const parts: [number, string][] = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
    [seconds % 60, 's'],
  ];
  return parts
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}`)
    .join(' ');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
