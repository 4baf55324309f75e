/**
 * `npm run bench`: every benchmark in one go, on this machine's emulators and
 * local deployment, and one table of their figures against their goals.
 *
 *   npm run bench                      (all, about 35 minutes on 2 cores; the 4-hour speech run only when named: speech-4h)
 *   npm run bench -- totals q-search   (only the benchmarks named, by their key below)
 *
 * Each benchmark runs in a node process of its own (its emulators, its memory, and the
 * output of the tools it starts, such as esbuild's, apart), its output appended to
 * bench-results/bench.log; the table goes to stdout, to bench-results/summary.json and into
 * docs/performance.md (between its "latest run" markers), with the date and the machine.
 * Exit code 1 when a goal is not met.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SummaryBench, SummaryRow } from './support/bench-summary';

/** The benchmarks, in the order they run: each loads its module only when it runs. */
const BENCHES: Record<string, { title: string; load: () => Promise<{ summary: SummaryBench }>; onlyWhenNamed?: true }> = {
  bundles: { title: 'bundle sizes and module load (bundles.bench.ts)', load: () => import('./bundles.bench') },
  seed: { title: 'seed of 10,000 members and 10,000 recordings (seed.bench.ts)', load: () => import('./seed.bench') },
  'q-search': { title: 'List users: q search and deep pages (list-users.bench.ts)', load: () => import('./list-users.bench') },
  totals: { title: 'List recordings: date-range totals and deep pages (recordings.bench.ts)', load: () => import('./recordings.bench') },
  pages: {
    title: 'page 1, middle and last page of List users, recordings and templates (pages.bench.ts)',
    load: () => import('./pages.bench'),
  },
  'hot-org': { title: '200 concurrent upload URLs in one organization (hot-org.bench.ts)', load: () => import('./hot-org.bench') },
  load: { title: 'autocannon on the local deployment (load.bench.ts)', load: () => import('./load.bench') },
  isolation: {
    title: 'one organization flooding, another at a steady rate (tenant-isolation.bench.ts)',
    load: () => import('./tenant-isolation.bench'),
  },
  synth: { title: 'npx cdk synth in each environment an operator synthesizes in (synth.bench.ts)', load: () => import('./synth.bench') },
  speech: {
    title: 'local speech engine: WER, real-time factor, memory for 1 minute and 1 hour, speakers, lag (speech.bench.ts)',
    load: () => import('./speech.bench'),
  },
  search: {
    title: 'search and ask: p50 at 10,000 recordings against 100, indexing throughput, lag, ask latency (search.bench.ts)',
    load: () => import('./search.bench'),
  },
  retention: {
    title: 'the retention sweep of an organization with 100,000 recordings: reads and writes (retention.bench.ts)',
    load: () => import('./retention.bench'),
  },
  export: {
    title: "a member's data export of 1,000 recordings, without and with media: time and peak memory (member-export.bench.ts)",
    load: () => import('./member-export.bench'),
  },
  erasure: {
    title: "a member's erasure with 1,000 recordings: time, items read and written (member-erasure.bench.ts)",
    load: () => import('./member-erasure.bench'),
  },
  'speech-4h': {
    title: 'local speech engine, with the 4-hour file too (speech.bench.ts; only when named, about 20 minutes more)',
    load: async () => ((process.env.SPEECH_BENCH_FOUR_HOURS = '1'), import('./speech.bench')),
    onlyWhenNamed: true,
  },
};

const RESULTS_DIR = path.resolve(__dirname, '../../bench-results');
/** tsx's command line, as test/support/local-deployment.ts starts it (the package exports no path to it). */
const TSX_CLI = path.resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs');
const PERFORMANCE_DOC = path.resolve(__dirname, '../../docs/performance.md');
const MARKERS = ['<!-- latest run: written by npm run bench -->', '<!-- end of latest run -->'] as const;

/** The machine the figures were taken on, as the doc states it. */
function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()}, Node.js ${process.version}`;
}

/** The rows as one Markdown table (also what stdout shows). */
function table(rows: SummaryRow[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| area | measure | value | goal | met |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.area} | ${cell(row.measure)} | ${cell(row.value)} | ${cell(row.goal ?? '')} | ${row.met === undefined ? '' : row.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
}

/** Replaces the latest-run section of docs/performance.md (left as it is when the markers are missing). */
function updatePerformanceDoc(section: string): boolean {
  const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
  const [start, end] = [doc.indexOf(MARKERS[0]), doc.indexOf(MARKERS[1])];
  if (start < 0 || end < start) return false;
  writeFileSync(PERFORMANCE_DOC, `${doc.slice(0, start + MARKERS[0].length)}\n${section}\n${doc.slice(end)}`);
  return true;
}

/** Runs one benchmark in this process and writes its rows as JSON to `rowsFile` (the child's side of runInChild). */
async function runOne(key: string, rowsFile: string): Promise<void> {
  const rows = await (await BENCHES[key].load()).summary();
  writeFileSync(rowsFile, JSON.stringify(rows));
}

/** Runs one benchmark in a node process of its own, its output appended to the log; its rows. */
async function runInChild(key: string, logFile: string): Promise<SummaryRow[]> {
  const rowsFile = path.join(RESULTS_DIR, `.rows-${key}.json`);
  rmSync(rowsFile, { force: true });
  const log = openSync(logFile, 'a');
  writeSync(log, `\n===== ${BENCHES[key].title} =====\n`);
  try {
    const child = spawn(process.execPath, [TSX_CLI, __filename, '--one', key, rowsFile], { stdio: ['ignore', log, log], env: process.env });
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
    if (code !== 0) throw new Error(`exited with ${code}`);
    return JSON.parse(readFileSync(rowsFile, 'utf8')) as SummaryRow[];
  } finally {
    closeSync(log);
    rmSync(rowsFile, { force: true });
  }
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  if (process.argv[2] === '--one') return runOne(process.argv[3], process.argv[4]);
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((key) => !(key in BENCHES));
  if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}; the benchmarks are: ${Object.keys(BENCHES).join(', ')}`);
  const keys = wanted.length ? wanted : Object.keys(BENCHES).filter((key) => !BENCHES[key].onlyWhenNamed);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, 'bench.log');
  writeFileSync(logFile, '');
  const startedAt = new Date();
  const rows: SummaryRow[] = [];
  const failures: string[] = [];
  for (const key of keys) {
    const started = performance.now();
    process.stderr.write(`${BENCHES[key].title} … `);
    try {
      rows.push(...(await runInChild(key, logFile)));
      process.stderr.write(`${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    } catch (error) {
      failures.push(`${key}: ${(error as Error).message}`);
      process.stderr.write(`failed (see ${path.relative(process.cwd(), logFile)})\n`);
    }
  }

  const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1);
  const heading = `Run on ${startedAt.toISOString().slice(0, 10)} (${minutes} min) on ${machine()}${wanted.length ? `; only ${keys.join(', ')}` : ''}.`;
  const markdown = `${heading}\n\n${table(rows)}${failures.length ? `\n\nFailed: ${failures.join('; ')}` : ''}`;
  console.log(`\n${markdown}\n`);
  writeFileSync(
    path.join(RESULTS_DIR, 'summary.json'),
    `${JSON.stringify({ generated_at: startedAt.toISOString(), machine: machine(), rows, failures }, null, 2)}\n`,
  );
  // A partial run leaves the doc's full table alone.
  if (!wanted.length && updatePerformanceDoc(markdown))
    console.log(`docs/performance.md updated; each benchmark's own output is in ${path.relative(process.cwd(), logFile)}`);
  if (failures.length || rows.some((row) => row.met === false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
