/**
 * `npm run bench`: every benchmark of issue 15 in one go, on this machine's emulators and
 * local deployment, and one table of their figures against their goals.
 *
 *   npm run bench                      (all, about 15 minutes on 2 cores)
 *   npm run bench -- totals q-search   (only the benchmarks named, by their key below)
 *
 * Each benchmark's own tables and progress go to bench-results/bench.log; the table goes to
 * stdout, to bench-results/summary.json and into docs/performance.md (between its
 * "latest run" markers), with the date and the machine. Exit code 1 when a goal is not met.
 */
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { format } from 'node:util';
import type { SummaryBench, SummaryRow } from './support/bench-summary';

/** The benchmarks, in the order they run: each loads its module only when it runs. */
const BENCHES: Record<string, { title: string; load: () => Promise<{ summary: SummaryBench }> }> = {
  bundles: { title: 'bundle sizes and module load (bundles.bench.ts)', load: () => import('./bundles.bench') },
  seed: { title: 'seed of 10,000 members and 10,000 recordings (seed.bench.ts)', load: () => import('./seed.bench') },
  'q-search': { title: 'List users: q search and deep pages (list-users.bench.ts)', load: () => import('./list-users.bench') },
  totals: { title: 'List recordings: date-range totals and deep pages (recordings.bench.ts)', load: () => import('./recordings.bench') },
  'hot-org': { title: '200 concurrent upload URLs in one organization (hot-org.bench.ts)', load: () => import('./hot-org.bench') },
  load: { title: 'autocannon on the local deployment (load.bench.ts)', load: () => import('./load.bench') },
};

const RESULTS_DIR = path.resolve(__dirname, '../../bench-results');
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
    ...rows.map((row) => `| ${row.area} | ${cell(row.measure)} | ${cell(row.value)} | ${cell(row.goal ?? '')} | ${row.met === undefined ? '' : row.met ? 'yes' : '**no**'} |`),
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

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((key) => !(key in BENCHES));
  if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}; the benchmarks are: ${Object.keys(BENCHES).join(', ')}`);
  const keys = wanted.length ? wanted : Object.keys(BENCHES);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, 'bench.log');
  const log = createWriteStream(logFile);
  const [consoleLog, consoleError] = [console.log, console.error];
  // The benchmarks print their own tables: into the log, so that stdout holds one table.
  console.log = (...args: unknown[]) => void log.write(`${format(...args)}\n`);
  console.error = (...args: unknown[]) => void log.write(`${format(...args)}\n`);
  const startedAt = new Date();
  const rows: SummaryRow[] = [];
  const failures: string[] = [];
  try {
    for (const key of keys) {
      const { title, load } = BENCHES[key];
      const started = performance.now();
      process.stderr.write(`${title} … `);
      log.write(`\n===== ${title} =====\n`);
      try {
        rows.push(...(await (await load()).summary()));
        process.stderr.write(`${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      } catch (error) {
        failures.push(`${key}: ${(error as Error).message}`);
        log.write(`${format(error)}\n`);
        process.stderr.write(`failed (see ${path.relative(process.cwd(), logFile)})\n`);
      }
    }
  } finally {
    console.log = consoleLog;
    console.error = consoleError;
    await new Promise((resolve) => log.end(resolve));
  }

  const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1);
  const heading = `Run on ${startedAt.toISOString().slice(0, 10)} (${minutes} min) on ${machine()}${keys.length < Object.keys(BENCHES).length ? `; only ${keys.join(', ')}` : ''}.`;
  const markdown = `${heading}\n\n${table(rows)}${failures.length ? `\n\nFailed: ${failures.join('; ')}` : ''}`;
  console.log(`\n${markdown}\n`);
  writeFileSync(path.join(RESULTS_DIR, 'summary.json'), `${JSON.stringify({ generated_at: startedAt.toISOString(), machine: machine(), rows, failures }, null, 2)}\n`);
  // A partial run leaves the doc's full table alone.
  if (keys.length === Object.keys(BENCHES).length && updatePerformanceDoc(markdown)) console.log(`docs/performance.md updated; each benchmark's own output is in ${path.relative(process.cwd(), logFile)}`);
  if (failures.length || rows.some((row) => row.met === false)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
