import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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

/**
 * Starts `npm start`'s entry point exactly as a user would (a child process running
 * infra/local/start.ts) on a data directory, and waits until /health answers.
 */
export async function startLocalDeployment(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<StartedDeployment> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'voice-org-test-'));
  let output = '';
  const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'infra/local/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      LOCAL_DATA_DIR: dataDir,
      PORT: '0',
      LOCAL_SEED: 'none',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const runtimeFile = path.join(dataDir, 'runtime.json');
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`local deployment exited early:\n${output}`);
    if (existsSync(runtimeFile) && output.includes('is running at')) {
      const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as LocalRuntime;
      const health = await fetch(`${runtime.apiUrl}/health`).catch(() => undefined);
      if (health?.ok) return { child, dataDir, runtime, output: () => output };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`local deployment not ready within 60 s:\n${output}`);
}

/** Sends SIGTERM and waits for the process to exit; returns its exit code. */
export async function stopLocalDeployment(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}
