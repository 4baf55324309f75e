import { execFile } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './local-deployment';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** The `voice-org` command's entry point (package.json "bin"), which `npx voice-org` runs. */
export const CLI_BIN = path.join(repoRoot, 'infra/cli/bin.mjs');

/**
 * Runs the admin CLI as `npx voice-org ...` does (its bin, by node, without npx's resolution:
 * test/integration/cli.test.ts runs it through npx once), against the deployment of `dataDir`.
 * The environment is the test's own: the bin itself must keep the SDK's notices off stderr.
 */
export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return runCommand(process.execPath, [CLI_BIN, ...args], env);
}

/**
 * Runs a command in the repository; `json` is its stdout as JSON on success, its stderr as JSON
 * on failure. `env` adds to the test's environment; a variable set to undefined is removed.
 */
export function runCommand(file: string, args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const merged = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined),
  ) as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    execFile(file, args, { cwd: repoRoot, env: merged }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      const text = code === 0 ? stdout : stderr;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
