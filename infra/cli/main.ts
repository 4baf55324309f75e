import { ApiError } from '../../shared/core/errors';
import { CliError } from './cli-error';
import { parseCommandLine } from './command-line';
import { COMMANDS } from './commands';
import { resolveTarget } from './target';

/**
 * Runs one command line: help goes to stdout; otherwise the command's result is JSON on
 * stdout, and any failure a JSON error on stderr with exit code 1 (errors in the command line
 * itself carry the usage of what was mistyped).
 */
async function main(argv: string[]): Promise<void> {
  const commandLine = parseCommandLine(argv, COMMANDS);
  if (commandLine.kind === 'help') {
    process.stdout.write(`${commandLine.text}\n`);
    return;
  }
  const target = resolveTarget();
  try {
    const result = await commandLine.command.run(commandLine.flags, target);
    // A command that streams its output (events tail) has printed it already.
    if (result !== undefined) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    target.db.client.destroy();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const code = error instanceof CliError || error instanceof ApiError ? error.code : 'CLI_FAILED';
  const usage = error instanceof CliError ? error.usage : undefined;
  process.stderr.write(`${JSON.stringify({ error: code, message: (error as Error).message, ...(usage ? { usage } : {}) })}\n`);
  process.exitCode = 1;
});
