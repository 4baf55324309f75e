import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalRuntime } from '../../infra/local/runtime-file';

export const repoRoot = path.resolve(__dirname, '../..');

export interface StartedDeployment {
  child: ChildProcess;
  dataDir: string;
  runtime: LocalRuntime;
  /** Everything the process printed so far. */
  output: () => string;
}

/** Where a deployment started with `outputFile` prints (stdout and stderr), in its data directory. */
export const OUTPUT_FILE = 'output.log';

/** What a deployment started with `outputFile` has printed so far, read by any process (test workers too). */
export function printedOutput(dataDir: string): string {
  const file = path.join(dataDir, OUTPUT_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/**
 * Starts `npm start`'s entry point exactly as a user would (a child process running
 * infra/local/start.ts) on a data directory, and waits until /health answers.
 *
 * With `outputFile`, the process prints into OUTPUT_FILE of its data directory instead of a
 * pipe: Node writes stdout to a file synchronously, so a line logged before a response was
 * sent is in the file once the response has arrived, for any process that reads it.
 */
export async function startLocalDeployment(
  options: { dataDir?: string; env?: Record<string, string>; outputFile?: boolean } = {},
): Promise<StartedDeployment> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'voice-org-test-'));
  let output = '';
  const fd = options.outputFile ? openSync(path.join(dataDir, OUTPUT_FILE), 'a') : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOCAL_DATA_DIR: dataDir,
      PORT: '0',
      LOCAL_SEED: 'none',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...options.env,
    },
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
  });
  if (fd === undefined) {
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
  } else {
    closeSync(fd); // the child holds its own copy
  }
  const printed = () => (fd === undefined ? output : printedOutput(dataDir));
  const runtimeFile = path.join(dataDir, 'runtime.json');
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`local deployment exited early:\n${printed()}`);
    if (existsSync(runtimeFile) && printed().includes('is running at')) {
      const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as LocalRuntime;
      const health = await fetch(`${runtime.apiUrl}/health`).catch(() => undefined);
      if (health?.ok) return { child, dataDir, runtime, output: printed };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`local deployment not ready within 60 s:\n${printed()}`);
}

/** Sends SIGTERM and waits for the process to exit; returns its exit code. */
export async function stopLocalDeployment(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}
