/**
 * The retention sweep (docs/governance.md) on DynamoDB Local: an organization of 100,000 live
 * recordings (RETENTION_BENCH_RECORDINGS changes it while developing), 100 made each day over the
 * last 1,000 days by 10 recorders, written with BatchWrite as the seed writes them. Its policy
 * expires the oldest 1 % (10 days); 10 of those are under a legal hold.
 *
 * It measures what the sweep reads and writes, request by request (DynamoDB Local's consumed
 * capacity), for the first sweep (which moves the 990 and keeps the 10 held) and for a second
 * the same day (which finds only the held ones): the point is that neither reads the 99,000
 * recordings the policy keeps. Results go to stdout and bench-results/retention.json.
 *
 *   npx tsx test/bench/retention.bench.ts        (or npm run bench -- retention)
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Caller } from '../../shared/auth/policy';
import { placeRecordingHold } from '../../shared/domain/governance/legal-holds';
import { sweepOrganization, updateRetention, type OrganizationSweep } from '../../shared/domain/governance/retention';
import { fixtureRecording } from '../../shared/operator-tasks/ensure-recording';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { Fixture } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { recordingItem } from '../../shared/storage/recording-items';
import { inPool } from '../support/in-pool';
import { tallyRequests } from '../support/observe-requests';
import { batchPut, chunks, printTable, reportHeader, round, secondsSince, withBenchTable, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const RECORDINGS = Number(process.env.RETENTION_BENCH_RECORDINGS ?? 100_000);
const DAYS = 1_000;
const POLICY_DAYS = DAYS - DAYS / 100;
const HELD = 10;
const RECORDERS = 10;
const TRASH_DAYS = 30;
const DAY = 86_400_000;
const ORG = 'org_bench_retention';
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/retention.json');
const count = (n: number) => n.toLocaleString('en-US');

interface Tally {
  requests: Record<string, number>;
  itemsRead: number;
  readUnits: number;
  writeRequests: number;
  itemsWritten: number;
  writeUnits: number;
}

const emptyTally = (): Tally => ({ requests: {}, itemsRead: 0, readUnits: 0, writeRequests: 0, itemsWritten: 0, writeUnits: 0 });
const WRITES = new Set(['TransactWriteItems', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

interface SweepFigures {
  sweep: OrganizationSweep;
  seconds: number;
  tally: Tally;
}

interface Result {
  rows: SummaryRow[];
  recordings: number;
  write_seconds: number;
  first: SweepFigures;
  second: SweepFigures;
  totalSeconds: number;
}

async function measure(): Promise<Result> {
  const started = performance.now();
  return withBenchTable('retention', async ({ setupDb, benchDb }) => {
    const now = new Date();
    const recorders = Array.from({ length: RECORDERS }, (_, i) => `usr_bench_ret_${i}`);
    await seedFixture(
      { db: setupDb, trashRetentionDays: TRASH_DAYS },
      v.parse(Fixture, {
        orgs: [{ id: ORG, name: 'Retention bench' }],
        users: recorders.map((id, i) => ({ id, email: `recorder${i}@bench.example`, display_name: `Recorder ${i}` })),
        memberships: recorders.map((user_id) => ({ org_id: ORG, user_id, role: 'member' })),
      }),
      now,
    );
    const writing = performance.now();
    const perDay = RECORDINGS / DAYS;
    const items = Array.from({ length: RECORDINGS }, (_, i) => {
      const createdAt = new Date(now.getTime() - (DAYS - Math.floor(i / perDay)) * DAY + (i % perDay) * 1000).toISOString();
      const entry = v.parse(Fixture, {
        recordings: [
          {
            id: `rec_ret_${String(i).padStart(6, '0')}`,
            org_id: ORG,
            recorded_by: recorders[i % RECORDERS],
            title: `Meeting ${i}`,
            duration: 60,
            language: 'en',
            created_at: createdAt,
          },
        ],
      }).recordings[0];
      return recordingItem(fixtureRecording(entry, now, TRASH_DAYS).recording);
    });
    await inPool(chunks(items, 25), 8, (batch) => batchPut(setupDb, batch));
    // The counters the recordings' own writes keep: what the trash moves decrement.
    await setupDb.client.send(
      new UpdateCommand({
        TableName: setupDb.tableName,
        Key: keys.organization(ORG),
        UpdateExpression: 'SET recording_count = :n, trash_count = :zero',
        ExpressionAttributeValues: { ':n': RECORDINGS, ':zero': 0 },
      }),
    );
    for (const userId of recorders)
      await setupDb.client.send(
        new UpdateCommand({
          TableName: setupDb.tableName,
          Key: keys.membership(ORG, userId),
          UpdateExpression: 'SET recording_count = :n',
          ExpressionAttributeValues: { ':n': RECORDINGS / RECORDERS },
        }),
      );
    const writeSeconds = secondsSince(writing);
    console.log(`${count(RECORDINGS)} recordings written with BatchWrite in ${writeSeconds} s`);

    const owner: Caller = { kind: 'org_key', orgId: ORG, keyId: 'key_bench', scopes: ['governance:write'], actor: 'key_bench' };
    const setupDeps = { db: setupDb, now: () => now, trashRetentionDays: TRASH_DAYS };
    // Held: HELD of the expired ones (the oldest 1 %), spread over their days.
    const heldEvery = RECORDINGS / 100 / HELD;
    for (let i = 0; i < HELD; i++)
      await placeRecordingHold(setupDeps, owner, `rec_ret_${String(i * heldEvery).padStart(6, '0')}`, 'Bench hold');
    await updateRetention(setupDeps, owner, POLICY_DAYS);

    const take = tallyRequests(benchDb, 'retentionBench', emptyTally, (tally, request) => {
      tally.requests[request.command] = (tally.requests[request.command] ?? 0) + 1;
      if (WRITES.has(request.command)) {
        tally.writeRequests++;
        tally.itemsWritten += ((request.input.TransactItems as unknown[] | undefined) ?? [request.input]).length;
        tally.writeUnits += request.capacityUnits ?? 0;
      } else {
        tally.itemsRead += request.itemsRead;
        tally.readUnits += request.capacityUnits ?? 0;
      }
    });
    const deps = { db: benchDb, now: () => now, trashRetentionDays: TRASH_DAYS };
    const sweepOnce = async (): Promise<SweepFigures> => {
      take();
      const begun = performance.now();
      const sweep = await sweepOrganization(deps, ORG);
      return { sweep, seconds: secondsSince(begun), tally: take() };
    };
    const first = await sweepOnce();
    const expired = RECORDINGS / 100;
    if (first.sweep.moved !== expired - HELD || first.sweep.held !== HELD)
      throw new Error(`first sweep: ${JSON.stringify(first.sweep)}, expected ${expired - HELD} moved and ${HELD} held`);
    const second = await sweepOnce();
    if (second.sweep.moved !== 0 || second.sweep.held !== HELD) throw new Error(`second sweep: ${JSON.stringify(second.sweep)}`);

    const per = (figures: SweepFigures) =>
      `${count(figures.tally.itemsRead)} items, ${round(figures.tally.readUnits)} RCU; ${count(figures.tally.writeRequests)} writes of ${count(figures.tally.itemsWritten)} items, ${round(figures.tally.writeUnits)} WCU; ${figures.seconds} s`;
    const rows: SummaryRow[] = [
      {
        area: 'retention',
        measure: `First sweep of ${count(RECORDINGS)} recordings, ${count(expired - HELD)} moved + ${HELD} held: read; written; time`,
        value: per(first),
      },
      { area: 'retention', measure: `Second sweep the same day (only the ${HELD} held expired): read; written; time`, value: per(second) },
      {
        area: 'retention',
        measure: 'Items read per recording moved (first sweep), against the organization’s recordings',
        value: `${round(first.tally.itemsRead / (expired - HELD))} (of ${count(RECORDINGS)}: nothing read for the ${count(RECORDINGS - expired)} kept)`,
      },
    ];
    return { rows, recordings: RECORDINGS, write_seconds: writeSeconds, first, second, totalSeconds: secondsSince(started) };
  });
}

function printDetails(result: Result): void {
  console.log('\nRequests per sweep:\n');
  const commands = [...new Set([...Object.keys(result.first.tally.requests), ...Object.keys(result.second.tally.requests)])].sort();
  printTable(
    ['command', 'first sweep', 'second sweep'],
    commands.map((command) => [
      command,
      count(result.first.tally.requests[command] ?? 0),
      count(result.second.tally.requests[command] ?? 0),
    ]),
    1,
  );
}

async function run(): Promise<Result> {
  const result = await measure();
  printDetails(result);
  writeReport(RESULTS_FILE, { ...reportHeader(0, 1), ...result }, result.totalSeconds);
  return result;
}

export const summary: SummaryBench = async () => (await run()).rows;

if (startedDirectly(__filename)) runAlone(run, () => {});
