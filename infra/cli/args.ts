import { CliError } from './cli-error';

/** `a b --flag value --other v` -> positionals [a, b] and flags {flag, other}. */
export function parseArgs(argv: string[]): { positionals: string[]; flags: Record<string, string> } {
  const positionals: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new CliError('MISSING_VALUE', `--${name} needs a value.`);
    flags[name] = value;
  }
  return { positionals, flags };
}
