import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as v from 'valibot';
import { parseInput } from '../../shared/schemas/validation';
import { CliError } from './cli-error';

/** How the CLI is started; every usage line begins with it. */
const CLI_INVOCATION = 'npx voice-org ';

/** One flag of a command; every flag takes a value. */
export interface FlagSpec {
  /** What the usage shows for the value, e.g. `--email E`. */
  placeholder: string;
  /** Shown without brackets in the usage (optional flags are in brackets); refused missing (MISSING_FLAG) before the command runs. */
  required?: boolean;
  description: string;
}

/** A command of the CLI: its flags, what it does, and how it runs once its flags are parsed. */
export interface CommandSpec<Target> {
  summary: string;
  flags: Record<string, FlagSpec>;
  /** More help text, shown by `<command> --help`. */
  notes?: string;
  run(flags: Record<string, string | undefined>, target: Target): unknown;
}

/** What a command line asks for: help text to print, or a command to run with its flags. */
export type CommandLine<Target> =
  { kind: 'help'; text: string } | { kind: 'run'; name: string; command: CommandSpec<Target>; flags: Record<string, string | undefined> };

type Options = NonNullable<ParseArgsConfig['options']>;
/** One argument as util.parseArgs reads it (with `tokens: true`). */
type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;
const isHelpFlag = (arg: string) => arg === '--help' || arg === '-h';

/**
 * Reads `<command> [flags]`, a command being one or two words (`seed`, `user create`). Flags
 * are parsed by util.parseArgs in strict mode: an unknown flag, a flag without its value, a
 * stray argument or a required flag left out is a CliError naming it, with the command's usage. `--help` or `-h`, after a
 * command, a command group (`user --help`) or alone, asks for help instead.
 */
export function parseCommandLine<Target>(argv: readonly string[], commands: Record<string, CommandSpec<Target>>): CommandLine<Target> {
  const words = argv.slice(0, leadingWordCount(argv));
  const name = [words.slice(0, 2).join(' '), words[0]].find((candidate) => candidate && Object.hasOwn(commands, candidate));
  if (!name) return unknownCommand(argv, words, commands);

  const command = commands[name];
  const args = argv.slice(name.split(' ').length);
  const options = optionsOf(command);
  try {
    const { values } = parseArgs({ args: [...args], options, strict: true, allowPositionals: false });
    if (values.help) return { kind: 'help', text: commandHelp(name, command) };
    const { help: _help, ...flags } = values;
    const missing = Object.entries(command.flags).filter(([flag, spec]) => spec.required && flags[flag] === undefined);
    if (missing.length) {
      const named = missing.map(([flag, spec]) => `--${flag} ${spec.placeholder}`).join(', ');
      throw new CliError('MISSING_FLAG', `${name} needs ${named}.`, { usage: commandUsage(name, command) });
    }
    return { kind: 'run', name, command, flags: flags as Record<string, string | undefined> };
  } catch (error) {
    if (error instanceof CliError) throw error;
    // Read leniently, the same arguments say which one was wrong, and whether help was asked
    // for after all (`--timezon X --help`; but in `--name --help`, --help is a name).
    const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
    if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { kind: 'help', text: commandHelp(name, command) };
    throw flagProblem(name, command, tokens, options, error as Error);
  }
}

/** Every command's usage line, for the CLI's own --help and for unknown commands. */
export function cliUsage(commands: Record<string, CommandSpec<unknown>>, only?: (name: string) => boolean): string {
  const entries = Object.entries(commands).filter(([name]) => !only || only(name));
  const lines = entries.map(([name, command]) => ({ usage: usageLine(name, command), summary: command.summary }));
  const width = Math.max(...lines.map((line) => line.usage.length));
  return [
    `Usage: ${CLI_INVOCATION}<command> [flags]`,
    ...lines.map((line) => `  ${line.usage.padEnd(width)}   ${line.summary}`),
    '',
    `${CLI_INVOCATION}<command> --help shows a command's flags.`,
  ].join('\n');
}

/** `user create --email E --name N [--timezone Z] [--id ID]` */
function usageLine(name: string, command: CommandSpec<unknown>): string {
  const flags = Object.entries(command.flags).map(([flag, spec]) =>
    spec.required ? `--${flag} ${spec.placeholder}` : `[--${flag} ${spec.placeholder}]`,
  );
  return [name, ...flags].join(' ');
}

export function commandUsage(name: string, command: CommandSpec<unknown>): string {
  return `Usage: ${CLI_INVOCATION}${usageLine(name, command)}`;
}

function commandHelp(name: string, command: CommandSpec<unknown>): string {
  const flags: [string, string][] = [
    ...Object.entries(command.flags).map(([flag, spec]): [string, string] => [`--${flag} ${spec.placeholder}`, spec.description]),
    ['-h, --help', 'show this help'],
  ];
  const width = Math.max(...flags.map(([usage]) => usage.length));
  return [
    commandUsage(name, command),
    '',
    `${command.summary[0].toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.notes ? ['', command.notes] : []),
    '',
    'Flags:',
    ...flags.map(([usage, description]) => `  ${usage.padEnd(width)}   ${description}`),
    '',
    'A value that starts with - is written --flag=value. The result is JSON on stdout; a failure is a JSON error on stderr.',
  ].join('\n');
}

/** The command words before the first flag. */
function leadingWordCount(argv: readonly string[]): number {
  const firstFlag = argv.findIndex((arg) => arg.startsWith('-'));
  return firstFlag === -1 ? argv.length : firstFlag;
}

function optionsOf(command: CommandSpec<unknown>): Options {
  return { ...Object.fromEntries(Object.keys(command.flags).map((flag) => [flag, { type: 'string' as const }])), ...HELP_OPTION };
}

/** No command matched: help for the CLI or a command group, else an error with the usage of what the words could mean. */
function unknownCommand<Target>(
  argv: readonly string[],
  words: readonly string[],
  commands: Record<string, CommandSpec<Target>>,
): CommandLine<Target> {
  const group = words[0];
  const inGroup = (name: string) => name.startsWith(`${group} `);
  const isGroup = group !== undefined && Object.keys(commands).some(inGroup);
  const wantsHelp = argv.length > words.length && isHelpFlag(argv[words.length]);
  if (wantsHelp && words.length === 0) return { kind: 'help', text: cliUsage(commands) };
  if (wantsHelp && words.length === 1 && isGroup) return { kind: 'help', text: cliUsage(commands, inGroup) };
  if (words.length === 0) {
    throw new CliError('UNKNOWN_COMMAND', argv.length ? `Expected a command before ${argv[0]}.` : 'No command given.', {
      usage: cliUsage(commands),
    });
  }
  if (isGroup && words.length === 1) {
    const choices = Object.keys(commands).filter(inGroup);
    throw new CliError('UNKNOWN_COMMAND', `${group} needs one of: ${choices.join(', ')}.`, { usage: cliUsage(commands, inGroup) });
  }
  throw new CliError('UNKNOWN_COMMAND', `Unknown command "${words.join(' ')}".`, {
    usage: isGroup ? cliUsage(commands, inGroup) : cliUsage(commands),
  });
}

/** Names what was wrong with the flags that util.parseArgs refused (strictError), from its lenient reading (tokens). */
function flagProblem(
  name: string,
  command: CommandSpec<unknown>,
  tokens: readonly Token[],
  options: Options,
  strictError: Error,
): CliError {
  const usage = commandUsage(name, command);
  for (const token of tokens) {
    if (token.kind === 'positional')
      return new CliError('UNEXPECTED_ARGUMENT', `Unexpected argument "${token.value}": ${name} takes flags only.`, { usage });
    if (token.kind !== 'option') continue;
    if (!options[token.name]) return new CliError('UNKNOWN_FLAG', `Unknown flag ${token.rawName} for ${name}.`, { usage });
    if (token.value === undefined) return new CliError('MISSING_VALUE', `${token.rawName} needs a value.`, { usage });
    // Strict mode takes a value starting with - for a forgotten one (`--name --email x`).
    if (!token.inlineValue && token.value.startsWith('-')) {
      return new CliError(
        'MISSING_VALUE',
        `${token.rawName} needs a value, not the flag-like "${token.value}" (a value that starts with - is written ${token.rawName}=${token.value}).`,
        { usage },
      );
    }
  }
  return new CliError('INVALID_FLAGS', strictError.message, { usage });
}

/** One flag's value through its schema (a refusal names the flag). */
export const flag = <S extends v.GenericSchema>(schema: S, value: unknown, name: string) =>
  parseInput(v.object({ [name]: schema }), { [name]: value })[name] as v.InferOutput<S>;
