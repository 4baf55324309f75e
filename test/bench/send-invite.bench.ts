/**
 * Benchmark of Send invite (POST /api/v1/organization/{orgId}/invites) through a local
 * deployment, as a client sees it: the HTTP request through the local API emulator, the
 * authorizer and the handler, on DynamoDB Local and the SES emulator.
 *
 *   npx tsx test/bench/send-invite.bench.ts [runs]      (default 50 timed runs, 5 warm-ups)
 *
 * It starts its own deployment (`npm start`'s entry point on a temp data directory), seeds
 * one organization with an org key, and sends `runs` invitations one after the other, each
 * to a new address, twice: back to back, and paced (each after the previous email arrived).
 * It reports the request's wall time (median, p95, min, max) and, when the invitation email
 * is sent off the request path, how long after the 201 the email reached the SES
 * emulator (median, p95; its /store polled).
 *
 * Run it on a commit with the inline send (before the email moved off the request path) and after, to compare. Both
 * servers are on this machine, so the SES emulator answers in a few milliseconds: the
 * difference measured here is the request's own SES call on loopback, far less than a call
 * to SES in AWS. Results go to stdout and to bench-results/send-invite.json.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { startLocalDeployment, stopLocalDeployment } from '../support/local-deployment';
import { median, percentile, printTable, reportHeader, round, secondsSince, writeReport } from './support/bench-harness';

const WARM_UPS = 5;
const RUNS = Number(process.argv[2] ?? 50);
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/send-invite.json');
/** How long to wait for one email before reporting it as not delivered. */
const DELIVERY_TIMEOUT_MS = 15_000;
/** How often the SES emulator's store is read (the delivery figures are this precise). */
const POLL_MS = 20;
/** Paced: the pause after an invite's email arrived, for the consumers to finish with it (recording it sent, the audit entries). */
const SETTLE_MS = 150;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StoredEmail {
  destination: { to: string[] };
}

async function main(): Promise<void> {
  const started = performance.now();
  // A data directory of its own, removed whether the deployment starts or not.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'send-invite-bench-'));
  const deployment = await startLocalDeployment({ dataDir, env: { LOG_LEVEL: 'ERROR' } }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    await stopLocalDeployment(deployment.child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    // The test support reads the deployment from this variable (seeding, the identity provider).
    process.env.TEST_LOCAL_DATA_DIR = deployment.dataDir;
    const { buildOrg, seedOrg } = await import('../support/org-builder');
    const org = await seedOrg(buildOrg({ label: 'bench', keys: { write: { scopes: ['invites:write'] } } }));
    const { apiUrl, sesEndpoint } = deployment.runtime;

    let sent = 0;
    const sendOne = async () => {
      const email = `bench.${sent++}.${org.id}@example.com`;
      const start = performance.now();
      const response = await fetch(`${apiUrl}/api/v1/organization/${org.org}/invites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.keys.write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      const body = (await response.json()) as { email_status?: string };
      const ms = performance.now() - start;
      if (response.status !== 201) throw new Error(`POST invites: ${response.status} ${JSON.stringify(body)}`);
      return { email, ms, answeredAt: Date.now(), queued: body.email_status === 'queued' };
    };

    // Watches the SES emulator's store throughout, noting when each address's email is first seen.
    const firstSeen = new Map<string, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { emails } = (await (await fetch(`${sesEndpoint}/store`)).json()) as { emails: StoredEmail[] };
        const now = Date.now();
        for (const email of emails) for (const to of email.destination.to) if (!firstSeen.has(to)) firstSeen.set(to, now);
        await pause(POLL_MS);
      }
    })();
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
      while (!done() && Date.now() < deadline) await pause(POLL_MS);
    };

    /**
     * `RUNS` requests one after the other. Back to back, the deployment's event pipeline (the
     * stream, the mail and audit consumers, in the same process as the API emulator) works
     * on the earlier invites while later requests are timed; paced, each request waits until
     * the previous invite's email arrived (and a moment more), as requests spread over time would.
     */
    const scenario = async (paced: boolean) => {
      const timed: Awaited<ReturnType<typeof sendOne>>[] = [];
      for (let run = 0; run < RUNS; run++) {
        const one = await sendOne();
        timed.push(one);
        if (paced) {
          await until(() => firstSeen.has(one.email));
          await pause(SETTLE_MS);
        }
      }
      const offRequestPath = timed.every((t) => t.queued);
      await until(() => timed.every((t) => firstSeen.has(t.email)));
      // When the email leaves after the response: how long after the 201 it was seen in the store.
      const deliveryMs = timed.flatMap((t) => (firstSeen.has(t.email) ? [Math.max(0, (firstSeen.get(t.email) ?? 0) - t.answeredAt)] : []));
      const times = timed.map((t) => t.ms);
      return {
        scenario: paced ? 'paced' : 'back to back',
        mode: offRequestPath ? 'email sent by the consumer (after the response)' : 'email sent inline (before the response)',
        request_ms: {
          median: round(median(times)),
          p95: round(percentile(times, 95)),
          min: round(Math.min(...times)),
          max: round(Math.max(...times)),
        },
        delivered: `${deliveryMs.length}/${timed.length}`,
        email_after_response_ms:
          offRequestPath && deliveryMs.length ? { median: round(median(deliveryMs)), p95: round(percentile(deliveryMs, 95)) } : null,
      };
    };

    for (let run = 0; run < WARM_UPS; run++) await sendOne();
    const results = [await scenario(false), await scenario(true)];
    watching = false;
    await watcher;

    console.log(`Send invite, ${RUNS} sequential requests per scenario after ${WARM_UPS} warm-ups: ${results[0]?.mode}\n`);
    printTable(
      ['scenario', 'median ms', 'p95 ms', 'min ms', 'max ms', 'emails', 'email after 201 (median / p95 ms)'],
      results.map((r) => [
        r.scenario,
        ...[r.request_ms.median, r.request_ms.p95, r.request_ms.min, r.request_ms.max].map(String),
        r.delivered,
        r.email_after_response_ms ? `${r.email_after_response_ms.median} / ${r.email_after_response_ms.p95}` : '(before the 201)',
      ]),
      1,
    );
    console.log(`\nRequest times are the client's wall time; emails are seen by polling the SES emulator every ${POLL_MS} ms.`);
    writeReport(RESULTS_FILE, { ...reportHeader(WARM_UPS, RUNS), scenarios: results }, secondsSince(started));
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
