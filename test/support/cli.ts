import { execFile } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './local-deployment';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the admin CLI as `npm run cli -- ...` does, against the deployment of `dataDir`. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'infra/cli/main.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const text = code === 0 ? stdout : stderr;
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}
