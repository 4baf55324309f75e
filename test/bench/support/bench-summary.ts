/**
 * The one table `npm run bench` prints (test/bench/run-all.ts): each benchmark script
 * exports `summary()`, which runs it and returns its rows, and still runs alone when
 * started directly (`npx tsx test/bench/<name>.bench.ts`).
 */
import path from 'node:path';
import { printTable } from './bench-harness';

/** One line of the benchmark table: a figure, what the goal asks of it, and whether it holds. */
export interface SummaryRow {
  /** The area measured: bundles, seed, search, totals, deep pages, hot org, load. */
  area: string;
  /** What the figure is, with its unit: "List users q at 10,000: read units". */
  measure: string;
  /** The figure as printed: "31.5", "0.98×", "4,812 req/s". */
  value: string;
  /** The goal it is held to, when there is one: "≤ 33.4 (5 % of 668)". */
  goal?: string;
  /** Whether the figure meets the goal; absent when there is no goal. */
  met?: boolean;
}

/** A benchmark script as the runner sees it. */
export type SummaryBench = () => Promise<SummaryRow[]>;

/** True when the calling module is the script node was started with (so a bench runs alone, but not when imported). */
export function startedDirectly(moduleFilename: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && path.resolve(entry) === moduleFilename;
}

/**
 * Runs a benchmark started directly: its detailed tables, then its summary rows; exit code 1
 * when it fails or a goal is not met.
 */
export function runAlone<T extends { rows: SummaryRow[] }>(measure: () => Promise<T>, printDetails: (result: T) => void): void {
  measure()
    .then((result) => {
      printDetails(result);
      console.log('');
      const { rows } = result;
      printTable(
        ['measure', 'value', 'goal', 'met'],
        rows.map((row) => [row.measure, row.value, row.goal ?? '', row.met === undefined ? '' : row.met ? 'yes' : 'NO']),
        1,
      );
      if (rows.some((row) => row.met === false)) process.exitCode = 1;
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
