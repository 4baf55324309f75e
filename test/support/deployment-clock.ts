import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The wall clock of a local deployment that a test sets instead of waiting for time to pass
 * (a rate limit's next window, a UTC midnight, a cache running out): the deployment's process
 * loads test/support/movable-clock.cjs, which reads the instant this writes in its data
 * directory. Each write is seen by the next request; between writes the clock stands still,
 * so requests sent "at" an instant are all counted at it, however slowly the machine runs.
 * Only a deployment of a test file's own may have one: the shared deployment's clock is real.
 */
export interface DeploymentClock {
  /** Sets the deployment's clock to `at` (epoch ms), where it stays until the next call. */
  setTo(at: number): void;
  /** The instant last set, or real time when none is. */
  now(): number;
  /** Real time again. */
  release(): void;
}

const CLOCK_FILE = 'movable-clock.json';
const PRELOAD = path.join(__dirname, 'movable-clock.cjs');

/** The environment that gives a deployment on `dataDir` a clock the test sets (the preload and its file). */
export function movableClockEnv(dataDir: string): Record<string, string> {
  return {
    // A process that starts another node process (tsx, the CLI) passes NODE_OPTIONS on: each loads the preload.
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require ${PRELOAD}`].filter(Boolean).join(' '),
    MOVABLE_CLOCK_FILE: path.join(dataDir, CLOCK_FILE),
  };
}

/** The clock of the deployment on `dataDir` (started with movableClockEnv). */
export function deploymentClock(dataDir: string): DeploymentClock {
  const file = path.join(dataDir, CLOCK_FILE);
  let set: number | undefined;
  return {
    setTo(at) {
      // Written aside, then renamed over: the deployment never reads a half-written file.
      writeFileSync(`${file}.next`, JSON.stringify({ at }));
      renameSync(`${file}.next`, file);
      set = at;
    },
    now: () => set ?? Date.now(),
    release() {
      rmSync(file, { force: true });
      set = undefined;
    },
  };
}
