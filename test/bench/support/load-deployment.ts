/**
 * The local deployment (`npm start`'s entry point, infra/local/start.ts) for the benchmarks
 * that measure it over HTTP: started on a fresh temp data directory, seeded through the
 * `seed` command's code, and always stopped with its directory removed, whether the bench
 * resolves, throws, or is interrupted (Ctrl-C, kill).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { localProfileCipher } from '../../../infra/local/profile-key';
import type { LocalRuntime } from '../../../infra/local/runtime-file';
import { parseModelCatalog } from '../../../shared/config';
import { seedFixture } from '../../../shared/operator-tasks/fixture';
import { Fixture as FixtureSchema, type Fixture, type FixtureInput } from '../../../shared/schemas/fixture';
import { createTableContext, type TableContext } from '../../../shared/storage/dynamo';
import { startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../../support/local-deployment';
import { secondsSince } from './bench-harness';

/** A running local deployment, as a bench script uses it. */
export interface BenchDeployment {
  runtime: LocalRuntime;
  dataDir: string;
  /** A client on the deployment's table, for setup and checks (never on the measured path). */
  db: TableContext;
  /** Loads a fixture exactly as `npx voice-org seed` does (validated by the Fixture schema). */
  seed: (fixture: FixtureInput, now?: Date) => Promise<void>;
}

/** How long a stopping deployment may take before it is killed. */
const STOP_TIMEOUT_MS = 15_000;
/** How long an interrupted deployment is given to stop by itself before it is sent SIGTERM. */
const SELF_STOP_GRACE_MS = 5_000;

/**
 * Starts the local deployment on a new temp data directory (empty table, `LOCAL_SEED=none`)
 * with `env` added to its environment, hands it to `run`, then stops it and removes the
 * directory. On SIGINT or SIGTERM it cleans up the same way (waiting for a deployment still
 * starting, so none is left behind) and exits with 128 + the signal number.
 */
export async function withLocalDeployment<T>(
  name: string,
  env: Record<string, string>,
  run: (deployment: BenchDeployment) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `${name}-bench-`));
  let db: TableContext | undefined;
  const starting: Promise<StartedDeployment> = startLocalDeployment({ dataDir, env });
  let cleanUp: Promise<void> | undefined;
  const cleanUpOnce = (interrupted = false) =>
    (cleanUp ??= (async () => {
      db?.client.destroy();
      const deployment = await starting.catch(() => undefined);
      // A Ctrl-C in a terminal reaches the deployment too: let it stop its emulators itself
      // first, since a second signal would end it before they are stopped.
      if (deployment && interrupted) await exitedWithin(deployment, SELF_STOP_GRACE_MS);
      if (deployment) await stopWithin(deployment, STOP_TIMEOUT_MS);
      rmSync(dataDir, { recursive: true, force: true });
    })());
  const onSignal = (signal: NodeJS.Signals) => void cleanUpOnce(true).finally(() => process.exit(128 + os.constants.signals[signal]));
  // `on`, not `once`: a Ctrl-C reaches this process twice (from the terminal, and relayed by
  // the tsx wrapper), and with no listener left the second one would end it mid-cleanup.
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  try {
    const deployment = await starting;
    const { runtime } = deployment;
    console.log(`Local deployment started at ${runtime.apiUrl} in ${secondsSince(started)} s (data in ${dataDir})`);
    const tableDb = createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
    db = tableDb;
    const settings = { db: tableDb, cipher: localProfileCipher(dataDir), models: parseModelCatalog({}) };
    const seed = async (fixture: FixtureInput, now = new Date()) => {
      await seedFixture(
        { db: tableDb, settings, trashRetentionDays: runtime.trashRetentionDays ?? 30 },
        v.parse(FixtureSchema, fixture) as Fixture,
        now,
      );
    };
    try {
      return await run({ runtime, dataDir, db: tableDb, seed });
    } catch (error) {
      const printed = deployment.output().trim();
      if (printed) console.error(`The local deployment printed (last 3,000 characters):\n${printed.slice(-3000)}`);
      throw error;
    }
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await cleanUpOnce();
  }
}

/**
 * Stops the deployment: SIGTERM to the process that runs infra/local/start.ts (runtime.pid),
 * not to the tsx wrapper that stopLocalDeployment signals: the wrapper SIGKILLs its child
 * when that child has not acknowledged a relayed signal within 30 ms, which on a busy machine
 * leaves DynamoDB Local running. The wrapper exits once its child has. After `timeoutMs`
 * the deployment is killed.
 */
async function stopWithin(deployment: StartedDeployment, timeoutMs: number): Promise<void> {
  if (hasExited(deployment)) return;
  try {
    process.kill(deployment.runtime.pid, 'SIGTERM');
  } catch {
    // Already gone: the wrapper is exiting too.
  }
  await exitedWithin(deployment, timeoutMs);
  if (hasExited(deployment)) return;
  console.error(`The local deployment did not stop within ${timeoutMs / 1000} s: killed`);
  await stopLocalDeployment(deployment.child, 'SIGKILL');
}

const hasExited = (deployment: StartedDeployment) => deployment.child.exitCode !== null || deployment.child.signalCode !== null;

/** Resolves once the deployment has exited, or after `timeoutMs`. */
async function exitedWithin(deployment: StartedDeployment, timeoutMs: number): Promise<void> {
  if (hasExited(deployment)) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => deployment.child.once('exit', () => resolve())),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}
