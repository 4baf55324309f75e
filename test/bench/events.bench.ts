/**
 * Benchmark of the local event pipeline (infra/local/event-pipeline.ts), as `npm start` runs it.
 *
 *   npx tsx test/bench/events.bench.ts [changes=2000] [lagSamples=100]
 *
 * 1. Throughput: `changes` templates are written straight to the table (25 at a time), and
 *    the clock runs until every one's `template.created` event is on the local bus
 *    (events.jsonl), then until every one's audit entry is stored: events per second the
 *    processor and the audit consumer sustain.
 * 2. Lag: `lagSamples` templates are created one after the other through the API; for each,
 *    the time from the response to its event on the bus, and to its entry in the audit log
 *    (GET /audit-log?resource_id=…), p50 and p95.
 *
 * Everything runs on this machine (DynamoDB Local on Java, the pipeline in the API's
 * process, polling its stream every 100 ms when idle): the figures are the local pipeline's,
 * not AWS's, where Lambda polls the stream about four times a second per shard.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { Fixture } from '../../shared/schemas/fixture';
import { newId } from '../../shared/ids';
import { createTableContext } from '../../shared/storage/dynamo';
import { putTemplate } from '../../shared/storage/templates';
import { startLocalDeployment, stopLocalDeployment } from '../support/local-deployment';

const CHANGES = Number(process.argv[2] ?? 2000);
const LAG_SAMPLES = Number(process.argv[3] ?? 100);
const ORG = 'org_bench_events';
const KEY = `pk_org_bench${'e'.repeat(24)}`;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const deployment = await startLocalDeployment({ env: { LOCAL_TTL_SWEEP_SECONDS: '0' } });
  const { runtime, dataDir } = deployment;
  const db = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
  const eventsFile = path.join(dataDir, 'events.jsonl');
  const busLines = () => (existsSync(eventsFile) ? readFileSync(eventsFile, 'utf8') : '');
  const countOnBus = (needle: string) => busLines().split(needle).length - 1;
  /** The last 64 KiB of the bus file: enough to find a recent event without rereading it all. */
  const busTail = () => {
    const text = busLines();
    return text.slice(-65_536);
  };
  try {
    const fixture = v.parse(Fixture, {
      orgs: [{ id: ORG, name: 'Bench' }],
      api_keys: [{ org_id: ORG, key: KEY, scopes: ['templates:write', 'templates:read', 'audit:read'] }],
    });
    await seedFixture({ db, trashRetentionDays: 30 }, fixture, new Date());
    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${runtime.apiUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const auditCount = async () => {
      // The audit log's own API, page by page: what an organization reads.
      let count = 0;
      let cursor: string | undefined;
      do {
        const res = await api(
          'GET',
          `/api/v1/organization/${ORG}/audit-log?type=template.created&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        const body = (await res.json()) as { entries: unknown[]; pagination?: { next_cursor?: string | null } };
        count += body.entries.length;
        cursor = body.pagination?.next_cursor ?? undefined;
      } while (cursor);
      return count;
    };

    // 1. Throughput.
    const now = new Date().toISOString();
    const started = performance.now();
    for (let i = 0; i < CHANGES; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, CHANGES - i) }, () =>
          putTemplate(
            db,
            { id: newId('tpl'), org_id: ORG, name: 'Bench', description: '', sections: [], created_at: now, updated_at: now },
            'create',
          ),
        ),
      );
    }
    const written = performance.now();
    while (countOnBus('"type":"template.created"') < CHANGES) await sleep(20);
    const onBus = performance.now();
    let audited = 0;
    for (let waited = 0; waited < 120_000; waited += 200) {
      audited = await auditCount();
      if (audited >= CHANGES) break;
      await sleep(200);
    }
    const inAudit = performance.now();
    console.log(`throughput: ${CHANGES} changes written in ${((written - started) / 1000).toFixed(2)} s`);
    console.log(
      `  on the bus after ${((onBus - started) / 1000).toFixed(2)} s: ${(CHANGES / ((onBus - started) / 1000)).toFixed(0)} events/s end to end`,
    );
    console.log(
      `  in the audit log after ${((inAudit - started) / 1000).toFixed(2)} s (${audited} entries): ${(CHANGES / ((inAudit - started) / 1000)).toFixed(0)} events/s`,
    );

    // 2. Lag, one change at a time.
    const toBus: number[] = [];
    const toAudit: number[] = [];
    for (let i = 0; i < LAG_SAMPLES; i++) {
      const res = await api('POST', `/api/v1/organization/${ORG}/templates`, {
        name: `Lag ${i}`,
        description: 'd',
        sections: [{ title: 't', prompt: 'p' }],
      });
      const committed = performance.now();
      if (res.status !== 201) throw new Error(`create template: ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      while (!busTail().includes(`"id":"${id}"`)) await sleep(2);
      toBus.push(performance.now() - committed);
      for (;;) {
        const found = (await (await api('GET', `/api/v1/organization/${ORG}/audit-log?resource_id=${id}`)).json()) as {
          entries?: unknown[];
        };
        if (found.entries?.length) break;
        await sleep(2);
      }
      toAudit.push(performance.now() - committed);
    }
    console.log(
      `lag over ${LAG_SAMPLES} API changes (ms): to the bus p50 ${percentile(toBus, 50).toFixed(0)} p95 ${percentile(toBus, 95).toFixed(0)}; to the audit log p50 ${percentile(toAudit, 50).toFixed(0)} p95 ${percentile(toAudit, 95).toFixed(0)}`,
    );
    console.log(`events on the bus for the org: ${countOnBus(`"org_id":"${ORG}"`)}`);
  } finally {
    db.client.destroy();
    await stopLocalDeployment(deployment.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
