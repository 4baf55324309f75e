/**
 * A member's data export (docs/governance.md, "Export") of 1,000 recordings, on the benchmark's
 * own DynamoDB Local and an S3 emulator (s3rver) in a process of its own, so that this
 * process's memory is the export's alone. The member's recordings each have a transcript of 40
 * segments, a summary and 3 action items (MEMBER_EXPORT_BENCH_RECORDINGS changes the count while
 * developing); with media, each has a 256 KB audio file (small files: what is measured is that
 * memory does not grow with the export, and 1,000 × 256 KB = 250 MB of audio already exceeds
 * what a buffered ZIP could hold in the bounded heap).
 *
 * It runs the export consumer's domain function (runMemberExport) twice, without and with media,
 * and reports the time, the ZIP's size, and the peak RSS and heap over the run (sampled every
 * 20 ms) against the process's before it. Results go to stdout and bench-results/member-export.json.
 *
 *   npx tsx test/bench/member-export.bench.ts        (or npm run bench -- export)
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { localProfileCipher } from '../../infra/local/profile-key';
import { parseModelCatalog } from '../../shared/config';
import { queuedMemberExport } from '../../shared/domain/exports/create-member-export';
import { runMemberExport } from '../../shared/domain/exports/run-member-export';
import { fixtureRecording } from '../../shared/operator-tasks/ensure-recording';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { Fixture } from '../../shared/schemas/fixture';
import { createExportObjects } from '../../shared/storage/export-objects';
import { insertMemberExport } from '../../shared/storage/member-exports';
import { partItems } from '../../shared/storage/recording-part-items';
import { recordingItem } from '../../shared/storage/recording-items';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import { inPool } from '../support/in-pool';
import { batchPut, chunks, printTable, reportHeader, round, secondsSince, withBenchTable, writeReport } from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';

const RECORDINGS = Number(process.env.MEMBER_EXPORT_BENCH_RECORDINGS ?? 1_000);
const SEGMENTS = 40;
const AUDIO_BYTES = 256 * 1024;
const ORG = 'org_bench_export';
const MEMBER = 'usr_bench_export_member';
const BUCKET = 'bench-export';
const REGION = 'us-east-1';
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/member-export.json');
const MB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-US');

interface Run {
  include_media: boolean;
  seconds: number;
  zip_bytes: number;
  files: { recordings: number; media_files: number };
  baseline: { rss: number; heap: number };
  peak: { rss: number; heap: number };
}

/** s3rver in a child process (its own memory), answering with its endpoint. */
async function startS3Process(dir: string): Promise<{ endpoint: string; stop: () => void }> {
  const script = `
    const S3rver = require('s3rver');
    const server = new S3rver({ port: 0, address: '127.0.0.1', directory: ${JSON.stringify(dir)}, silent: true, configureBuckets: [{ name: ${JSON.stringify(BUCKET)}, configs: [] }] });
    server.run().then(({ port }) => console.log(JSON.stringify({ port })));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: path.resolve(__dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve((JSON.parse(data.toString()) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Samples this process's memory until stopped: the highest RSS and heap seen. */
function sampleMemory(): () => { rss: number; heap: number } {
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peak.rss = Math.max(peak.rss, rss);
    peak.heap = Math.max(peak.heap, heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

async function measure(): Promise<{ rows: SummaryRow[]; runs: Run[]; seedSeconds: number; totalSeconds: number }> {
  const started = performance.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'member-export-bench-'));
  const s3 = await startS3Process(path.join(dataDir, 's3'));
  try {
    return await withBenchTable('member-export', async ({ setupDb, benchDb }) => {
      const now = new Date();
      const cipher = localProfileCipher(dataDir);
      const seeding = performance.now();
      await seedFixture(
        { db: setupDb, trashRetentionDays: 30, settings: { db: setupDb, cipher, models: parseModelCatalog({}) } },
        v.parse(Fixture, {
          orgs: [{ id: ORG, name: 'Export bench' }],
          users: [{ id: MEMBER, email: 'mia@bench.example', display_name: 'Mia Bench' }],
          memberships: [{ org_id: ORG, user_id: MEMBER, role: 'member' }],
          settings: [{ org_id: ORG, user_id: MEMBER, profile: '# Mia\n\nSales lead.' }],
        }),
        now,
      );
      const items = Array.from({ length: RECORDINGS }, (_, i) => {
        const id = `rec_exp_${String(i).padStart(5, '0')}`;
        const entry = v.parse(Fixture, {
          recordings: [
            {
              id,
              org_id: ORG,
              recorded_by: MEMBER,
              title: `Customer call ${i}`,
              duration: 600,
              language: 'en',
              created_at: new Date(now.getTime() - i * 60_000).toISOString(),
              upload: { filename: `call-${i}.m4a`, content_type: 'audio/mp4', size_bytes: AUDIO_BYTES, uploaded_at: now.toISOString() },
              transcript: Array.from({ length: SEGMENTS }, (_, s) => ({
                speaker: `Speaker ${s % 2}`,
                text: `In call ${i} we discussed point ${s}: pricing, delivery dates and the next steps for the rollout.`,
                start: s * 10,
                end: s * 10 + 9,
              })),
              summary: { markdown: `## Call ${i}\n\n- Pricing agreed\n- Delivery in two weeks\n- Follow-up on the contract` },
              action_items: [1, 2, 3].map((n) => ({ text: `Action ${n} of call ${i}`, assignee: MEMBER, due_date: '2026-12-01' })),
            },
          ],
        }).recordings[0];
        const { recording, parts } = fixtureRecording(entry, now, 30);
        return [recordingItem(recording), ...partItems(ORG, id, parts)];
      });
      await inPool(chunks(items.flat(), 25), 8, (batch) => batchPut(setupDb, batch));
      const client = new S3Client({
        region: REGION,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const audio = Buffer.alloc(AUDIO_BYTES, 7);
      await inPool(
        Array.from({ length: RECORDINGS }, (_, i) => i),
        8,
        (i) =>
          client.send(
            new PutObjectCommand({
              Bucket: BUCKET,
              Key: recordingObjectKey(ORG, `rec_exp_${String(i).padStart(5, '0')}`, `call-${i}.m4a`),
              Body: audio,
            }),
          ),
      );
      client.destroy();
      const seedSeconds = secondsSince(seeding);
      console.log(`${count(RECORDINGS)} recordings and their audio written in ${seedSeconds} s`);

      const objects = createExportObjects({ bucket: BUCKET, region: REGION, endpoint: s3.endpoint });
      const deps = { db: benchDb, objects, cipher, models: parseModelCatalog({}), now: () => new Date(), auditRetentionDays: null };
      const runs: Run[] = [];
      for (const includeMedia of [false, true]) {
        const exportId = `exp_bench_${includeMedia ? 'media' : 'json'}`;
        await insertMemberExport(
          setupDb,
          queuedMemberExport({ id: exportId, orgId: ORG, userId: MEMBER, includeMedia, requestedBy: MEMBER, at: new Date() }),
        );
        const event: DomainEvent = {
          id: `evt_${(includeMedia ? 'b' : 'a').repeat(32)}`,
          type: 'user.export_requested',
          occurred_at: new Date().toISOString(),
          org_id: ORG,
          actor: null,
          correlation_id: null,
          resource: { type: 'user', id: MEMBER },
          data: { export_id: exportId, include_media: includeMedia },
        };
        global.gc?.();
        const { rss, heapUsed } = process.memoryUsage();
        const stop = sampleMemory();
        const begun = performance.now();
        const outcome = await runMemberExport(deps, event, { attempt: 1, last: true });
        const seconds = secondsSince(begun);
        const peak = stop();
        if (outcome.kind !== 'completed') throw new Error(`export ${exportId}: ${JSON.stringify(outcome)}`);
        runs.push({
          include_media: includeMedia,
          seconds,
          zip_bytes: outcome.sizeBytes,
          files: { recordings: outcome.counts.recordings, media_files: outcome.counts.media_files },
          baseline: { rss: round(rss / MB), heap: round(heapUsed / MB) },
          peak: { rss: round(peak.rss / MB), heap: round(peak.heap / MB) },
        });
      }
      const rows: SummaryRow[] = runs.map((run) => ({
        area: 'export',
        measure: `Member export of ${count(RECORDINGS)} recordings ${run.include_media ? `with media (${count(run.files.media_files)} × 256 KB)` : 'without media'}: time; ZIP; peak RSS / heap (before)`,
        value: `${run.seconds} s; ${round(run.zip_bytes / MB)} MB; ${run.peak.rss} / ${run.peak.heap} MB (${run.baseline.rss} / ${run.baseline.heap} MB)`,
      }));
      return { rows, runs, seedSeconds, totalSeconds: secondsSince(started) };
    });
  } finally {
    s3.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printDetails(result: { runs: Run[] }): void {
  console.log('\nMember export:\n');
  printTable(
    ['media', 'seconds', 'ZIP MB', 'peak RSS MB', 'peak heap MB', 'RSS before', 'heap before'],
    result.runs.map((run) => [
      run.include_media ? 'yes' : 'no',
      String(run.seconds),
      String(round(run.zip_bytes / MB)),
      String(run.peak.rss),
      String(run.peak.heap),
      String(run.baseline.rss),
      String(run.baseline.heap),
    ]),
    1,
  );
}

async function run() {
  const result = await measure();
  printDetails(result);
  writeReport(RESULTS_FILE, { ...reportHeader(0, 1), ...result }, result.totalSeconds);
  return result;
}

export const summary: SummaryBench = async () => (await run()).rows;

if (startedDirectly(__filename)) runAlone(run, () => {});
