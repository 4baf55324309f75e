/**
 * A member's erasure (docs/governance.md, "Erasure") on this machine's emulators: a member with
 * ERASURE_BENCH_RECORDINGS recordings (default 1,000), each with a transcript, a summary, action
 * items and a translation, plus settings, a profile, preferences, a key and a tag, in an
 * organization where another member's 100 recordings hold action items naming them. The job
 * (runErasureSteps, as its consumer runs it) is timed and every table request it makes is
 * tallied: items read and written, read and write units. The bucket is a counting stand-in (the
 * S3 calls are one per recording, the same whatever their size) and there is no search index,
 * so the figures are the table's. Results go to stdout and to bench-results/member-erasure.json.
 *
 *   npx tsx test/bench/member-erasure.bench.ts        (or npm run bench -- erasure)
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localProfileCipher } from '../../infra/local/profile-key';
import { parseModelCatalog } from '../../shared/config';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { runErasureSteps } from '../../shared/domain/erasures/run-member-erasure';
import { startMemberErasure } from '../../shared/domain/erasures/start-member-erasure';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { getErasure } from '../../shared/storage/erasures';
import { tallyRequests } from '../support/observe-requests';
import { printTable, reportHeader, round, secondsSince, withBenchTable, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const RECORDINGS = Number(process.env.ERASURE_BENCH_RECORDINGS ?? 1_000);
const OTHERS_RECORDINGS = 100;
const ORG = 'org_bench_erasure';
const ZED = 'usr_bench_zed';
const OWNER = 'usr_bench_owner';
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/member-erasure.json');
const count = (n: number) => n.toLocaleString('en-US');
const WRITES = new Set(['TransactWriteItems', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

interface Tally {
  requests: Record<string, number>;
  itemsRead: number;
  readUnits: number;
  itemsWritten: number;
  writeUnits: number;
}
const emptyTally = (): Tally => ({ requests: {}, itemsRead: 0, readUnits: 0, itemsWritten: 0, writeUnits: 0 });

interface Result {
  rows: SummaryRow[];
  recordings: number;
  seed_seconds: number;
  erasure_seconds: number;
  counts: Record<string, number>;
  tally: Tally;
  objects: { prefixes: number };
  totalSeconds: number;
}

function fixture(): FixtureInput {
  const recording = (id: string, by: string, i: number, extra: Record<string, unknown>) => ({
    id,
    org_id: ORG,
    recorded_by: by,
    title: `Meeting ${i}`,
    duration: 1800,
    language: 'en',
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    ...extra,
  });
  return {
    orgs: [{ id: ORG, name: 'Erasure bench' }],
    users: [
      { id: OWNER, email: 'owner@bench.example', display_name: 'Olga Owner' },
      { id: ZED, email: 'zed@bench.example', display_name: 'Zelda Quillfeather' },
    ],
    memberships: [
      { org_id: ORG, user_id: OWNER, role: 'owner' },
      { org_id: ORG, user_id: ZED, role: 'member' },
    ],
    api_keys: [{ org_id: ORG, user_id: ZED, key: `pk_user_benchzed${'a'.repeat(24)}`, scopes: ['recordings:read'] }],
    tags: [{ id: 'tag_bench_zed', org_id: ORG, user_id: ZED, name: 'Mine', color: '#123456' }],
    settings: [{ org_id: ORG, user_id: ZED, settings: { auto_transcription: false }, profile: 'Zelda prefers mornings' }],
    recordings: [
      ...Array.from({ length: RECORDINGS }, (_, i) =>
        recording(`rec_zed_${String(i).padStart(5, '0')}`, ZED, i, {
          transcript: Array.from({ length: 20 }, (_, s) => ({
            speaker: 'Zelda',
            text: `Point ${s} of meeting ${i}.`,
            start: s * 10,
            end: s * 10 + 9,
          })),
          summary: { markdown: `Meeting ${i}: the budget and the roadmap.` },
          action_items: [{ text: 'Send the notes', assignee: 'Zelda Quillfeather' }],
          translation: { to_language: 'es', detected_language: 'en' },
        }),
      ),
      ...Array.from({ length: OTHERS_RECORDINGS }, (_, i) =>
        recording(`rec_owner_${String(i).padStart(4, '0')}`, OWNER, RECORDINGS + i, {
          action_items: [
            { text: 'Review the plan', assignee: 'Zelda Quillfeather' },
            { text: 'Book the room', assignee: 'Olga Owner' },
          ],
        }),
      ),
    ],
  };
}

async function measure(): Promise<Result> {
  const started = performance.now();
  return withBenchTable('erasure', async ({ setupDb, benchDb }) => {
    const now = new Date();
    const seeding = performance.now();
    const keyDir = mkdtempSync(path.join(os.tmpdir(), 'erasure-bench-key-'));
    const settings = { db: setupDb, cipher: localProfileCipher(keyDir), models: parseModelCatalog(process.env) };
    await seedFixture({ db: setupDb, trashRetentionDays: 30, settings }, v.parse(Fixture, fixture()), now);
    rmSync(keyDir, { recursive: true, force: true });
    const seedSeconds = secondsSince(seeding);
    console.log(`${count(RECORDINGS + OTHERS_RECORDINGS)} recordings seeded in ${seedSeconds} s`);

    const erasure = await startMemberErasure(
      { db: setupDb, now: () => new Date() },
      { kind: 'org_key', orgId: ORG, keyId: 'key_bench', scopes: ['governance:write'], actor: 'key_bench' },
      ZED,
      'zed@bench.example',
    );
    const take = tallyRequests(benchDb, 'erasureBench', emptyTally, (tally, request) => {
      tally.requests[request.command] = (tally.requests[request.command] ?? 0) + 1;
      if (WRITES.has(request.command)) {
        const input = request.input as { TransactItems?: unknown[]; RequestItems?: Record<string, unknown[]> };
        tally.itemsWritten += input.TransactItems?.length ?? (input.RequestItems ? Object.values(input.RequestItems).flat().length : 1);
        tally.writeUnits += request.capacityUnits ?? 0;
      } else {
        tally.itemsRead += request.itemsRead;
        tally.readUnits += request.capacityUnits ?? 0;
      }
    });
    const objects = { prefixes: 0 };
    const bucket = {
      deletePrefix: async () => ((objects.prefixes += 1), { objects: 1, uploadsAborted: 0 }),
      deleteObject: async () => undefined,
    };
    const stored = await getErasure(setupDb, ORG, erasure.id, { consistent: true });
    take();
    const begun = performance.now();
    const outcome = await runErasureSteps({ db: benchDb, now: () => new Date(), objects: bucket }, stored!);
    const erasureSeconds = secondsSince(begun);
    const tally = take();
    if (outcome.kind !== 'completed') throw new Error(`the erasure did not complete: ${JSON.stringify(outcome)}`);
    const counts = outcome.erasure.counts as Record<string, number>;
    if (counts.recordings !== RECORDINGS || counts.action_items_rewritten !== OTHERS_RECORDINGS)
      throw new Error(`unexpected counts: ${JSON.stringify(counts)}`);
    const rows: SummaryRow[] = [
      {
        area: 'erasure',
        measure: `Erasure of a member with ${count(RECORDINGS)} recordings (+ ${OTHERS_RECORDINGS} action items naming them elsewhere): time`,
        value: `${erasureSeconds} s (${round((erasureSeconds * 1000) / RECORDINGS)} ms a recording)`,
      },
      {
        area: 'erasure',
        measure: 'Items read; read units',
        value: `${count(tally.itemsRead)} items, ${round(tally.readUnits)} RCU`,
      },
      {
        area: 'erasure',
        measure: 'Items written (deleted or rewritten); write units',
        value: `${count(tally.itemsWritten)} items, ${round(tally.writeUnits)} WCU`,
      },
      {
        area: 'erasure',
        measure: 'What it counted',
        value: Object.entries(counts)
          .map(([name, n]) => `${name} ${count(n)}`)
          .join(', '),
      },
    ];
    return {
      rows,
      recordings: RECORDINGS,
      seed_seconds: seedSeconds,
      erasure_seconds: erasureSeconds,
      counts,
      tally,
      objects,
      totalSeconds: secondsSince(started),
    };
  });
}

function printDetails(result: Result): void {
  console.log('\nRequests of the erasure:\n');
  printTable(
    ['command', 'requests'],
    Object.entries(result.tally.requests)
      .sort()
      .map(([command, n]) => [command, count(n)]),
    1,
  );
}

async function run(): Promise<Result> {
  const result = await measure();
  writeReport(RESULTS_FILE, { ...reportHeader(0, 1), ...result }, result.totalSeconds);
  return result;
}

export const summary: SummaryBench = async () => (await run()).rows;

if (startedDirectly(__filename)) runAlone(run, printDetails);
