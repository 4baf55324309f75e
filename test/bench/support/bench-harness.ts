/**
 * What the benchmark scripts under test/bench share: DynamoDB Local with the table for the
 * length of a run, batch writes, timing and the small numeric and output helpers (the request
 * instrumentation and the task pool, which tests use too, are in test/support). The scenarios, their checks and their reports stay in each script.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoDbLocal, type Emulator } from '../../../infra/local/emulators';
import { createTableContext, type TableContext } from '../../../shared/storage/dynamo';

const REGION = 'us-east-1';

// ---------------------------------------------------------------------------------------
// DynamoDB Local

/** The bench table on DynamoDB Local, through two clients. */
export interface BenchTables {
  endpoint: string;
  /** For setup writes and checks: never instrumented. */
  setupDb: TableContext;
  /** For the measured calls: the client to instrument, so only they are tallied. */
  benchDb: TableContext;
}

/**
 * Starts DynamoDB Local in a new temp dir, creates the table `bench-${name}` and hands
 * `run` two clients on it. Afterwards, whether `run` resolved or threw, and on SIGINT or
 * SIGTERM (then exiting with 128 + the signal number), destroys the clients, stops
 * DynamoDB Local and removes the temp dir, so no emulator or file is left behind.
 */
export async function withBenchTable<T>(name: string, run: (tables: BenchTables) => Promise<T>): Promise<T> {
  const started = performance.now();
  const tableName = `bench-${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-bench-`));
  let dynamo: Emulator | undefined;
  const contexts: TableContext[] = [];
  let cleanUp: Promise<void> | undefined;
  const cleanUpOnce = () =>
    (cleanUp ??= (async () => {
      contexts.forEach((db) => db.client.destroy());
      await dynamo?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  // Ctrl-C or a kill must not leave DynamoDB Local running or its files in the temp dir.
  const onSignal = (signal: NodeJS.Signals) => void cleanUpOnce().finally(() => process.exit(128 + os.constants.signals[signal]));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    dynamo = await startDynamoDbLocal(dataDir, '127.0.0.1');
    const { endpoint } = dynamo;
    await ensureTable(endpoint, tableName, REGION);
    const setupDb = createTableContext({ tableName, region: REGION, endpoint });
    const benchDb = createTableContext({ tableName, region: REGION, endpoint });
    contexts.push(setupDb, benchDb);
    console.log(`DynamoDB Local started at ${endpoint} in ${secondsSince(started)} s`);
    return await run({ endpoint, setupDb, benchDb });
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await cleanUpOnce();
  }
}

// ---------------------------------------------------------------------------------------
// Bench data

/** Puts up to 25 items with one BatchWriteItem, retrying whatever DynamoDB leaves unprocessed. */
export async function batchPut(db: TableContext, items: Record<string, unknown>[]): Promise<void> {
  let requests = items.map((Item) => ({ PutRequest: { Item } }));
  while (requests.length > 0) {
    const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: requests } }));
    requests = (UnprocessedItems?.[db.tableName] ?? []).flatMap((request) =>
      request.PutRequest?.Item ? [{ PutRequest: { Item: request.PutRequest.Item } }] : [],
    );
  }
}

/** The item at `key`, or undefined. */
export async function getItem(db: TableContext, key: Record<string, string>): Promise<Record<string, unknown> | undefined> {
  return (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;
}

/** An item's attribute names and value types (`null` for null), sorted, as JSON: `[]` for no item. */
export function itemShape(item: Record<string, unknown> | undefined): string {
  return JSON.stringify(
    Object.entries(item ?? {})
      .map(([name, value]) => `${name}:${value === null ? 'null' : typeof value}`)
      .sort(),
  );
}

/** A small deterministic PRNG: each call gives an integer in [0, n), the same sequence for the same seed. */
export function prng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state >>> 8) % n;
  };
}

/** `items` cut into arrays of `size` (the last one shorter). */
export function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));
}

// ---------------------------------------------------------------------------------------
// Timing and figures

/** Wall times of the timed runs, in ms rounded to 0.01. */
export interface WallTimes {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** Awaits `call` `warmUps` times untimed, then `runs` times timed; returns the timed calls' ms. */
export async function timeCalls(call: () => Promise<unknown>, warmUps: number, runs: number): Promise<number[]> {
  for (let run = 0; run < warmUps; run++) await call();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times;
}

/** The median, min and max of `times` (ms), rounded, and how many there are. */
export function wallTimes(times: number[]): WallTimes {
  return { median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)), runs: times.length };
}

/** `value` rounded to 2 decimals. */
export const round = (value: number): number => Math.round(value * 100) / 100;

/** The median: the middle value, or the mean of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The nearest-rank `p`th percentile (0 < p <= 100): the smallest value with at least p % of them at or below it. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Seconds since `start` (a performance.now() value), rounded to 2 decimals. */
export const secondsSince = (start: number): number => round((performance.now() - start) / 1000);

// ---------------------------------------------------------------------------------------
// Output

/** Prints an aligned table: the first `textColumns` columns align left, the others (figures) right. */
export function printTable(header: string[], rows: string[][], textColumns: number): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column < textColumns ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  rows.forEach((row) => console.log(line(row)));
}

/** The fields every bench report starts with: when it ran, on which Node, how many warm-ups and timed runs. */
export function reportHeader(warmUps: number, runs: number) {
  return { generated_at: new Date().toISOString(), node: process.version, warm_ups: warmUps, runs };
}

/** Writes `report` as JSON to `file` (creating its folder) and says so, with the run's total time. */
export function writeReport(file: string, report: object, totalSeconds: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nResults written to ${path.relative(process.cwd(), file)}; total run time ${totalSeconds} s`);
}
