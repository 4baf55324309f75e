import { CliError } from '../../infra/cli/cli-error';
import { parseCommandLine } from '../../infra/cli/command-line';
import { COMMANDS } from '../../infra/cli/commands';

/**
 * The CLI's command-line parsing in process, for every command (test/integration/cli.test.ts
 * runs the CLI as a process for a few of these, and for what the commands do).
 */
const parse = (...argv: string[]) => parseCommandLine(argv, COMMANDS);

/** The CliError a command line is refused with (fails the test when it is accepted). */
function refusal(...argv: string[]): CliError {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('cli command line', () => {
  it.each(Object.keys(COMMANDS))('%s --help and -h show its usage and every flag', (name) => {
    for (const help of ['--help', '-h']) {
      const line = parse(...name.split(' '), help);
      if (line.kind !== 'help') throw new Error(`${name} ${help} did not ask for help`);
      expect(line.text).toMatch(new RegExp(`^Usage: npx voice-org ${name}( |$)`, 'm'));
      for (const flag of Object.keys(COMMANDS[name].flags)) expect(line.text).toContain(`--${flag} `);
      expect(line.text).toContain('-h, --help');
    }
  });

  it.each(Object.keys(COMMANDS))('%s refuses an unknown flag by name before running, with its usage', (name) => {
    const required = Object.entries(COMMANDS[name].flags)
      .filter(([, spec]) => spec.required)
      .flatMap(([flag]) => [`--${flag}`, 'x']);
    const error = refusal(...name.split(' '), ...required, '--no-such-flag', 'x');
    expect(error).toMatchObject({ code: 'UNKNOWN_FLAG', message: `Unknown flag --no-such-flag for ${name}.` });
    expect(error.usage).toMatch(new RegExp(`^Usage: npx voice-org ${name}( |$)`));
  });

  it.each(Object.entries(COMMANDS).filter(([, command]) => Object.values(command.flags).some((spec) => spec.required)))(
    '%s refuses its required flags left out (MISSING_FLAG naming them all) before running',
    (name, command) => {
      const required = Object.entries(command.flags).filter(([, spec]) => spec.required);
      const error = refusal(...name.split(' '));
      expect(error.code).toBe('MISSING_FLAG');
      expect(error.message).toBe(`${name} needs ${required.map(([flag, spec]) => `--${flag} ${spec.placeholder}`).join(', ')}.`);
      // Given them all, it parses.
      expect(parse(...name.split(' '), ...required.flatMap(([flag]) => [`--${flag}`, 'x']))).toMatchObject({ kind: 'run', name });
    },
  );

  it('parses the flags of a command', () => {
    const line = parse('user', 'create', '--email', 'a@example.com', '--name', 'A', '--timezone=Europe/Paris');
    expect(line).toMatchObject({
      kind: 'run',
      name: 'user create',
      flags: { email: 'a@example.com', name: 'A', timezone: 'Europe/Paris' },
    });
  });

  it.each([
    [
      ['user', 'create', '--email', 'e@example.com', '--timezon', 'Europe/Paris'],
      'UNKNOWN_FLAG',
      'Unknown flag --timezon for user create.',
      'user create --email E --name N [--timezone Z] [--id ID]',
    ],
    [['key', 'revoke', '-x'], 'UNKNOWN_FLAG', 'Unknown flag -x for key revoke.', 'key revoke --id K'],
    [['key', 'revoke', '--id'], 'MISSING_VALUE', '--id needs a value.', 'key revoke --id K'],
    [
      ['token', '--user', '--expires-in', '60'],
      'MISSING_VALUE',
      '--user needs a value, not the flag-like "--expires-in"',
      'token [--user U] [--email E] [--name N] [--expires-in SECONDS]',
    ],
    [
      ['token', '--user', 'usr_x', '--expires-in', '-30'],
      'MISSING_VALUE',
      'is written --expires-in=-30',
      'token [--user U] [--email E] [--name N] [--expires-in SECONDS]',
    ],
    [['seed', 'fixture.json'], 'UNEXPECTED_ARGUMENT', 'Unexpected argument "fixture.json": seed takes flags only.', 'seed --file F.json'],
  ])('refuses %j: %s naming the flag, with the usage', (argv, code, message, usage) => {
    const error = refusal(...argv);
    expect({ code: error.code, usage: error.usage }).toEqual({ code, usage: `Usage: npx voice-org ${usage}` });
    expect(error.message).toContain(message);
  });

  it('lets help win over a mistyped flag, but not over a value written --flag=--help', () => {
    expect(parse('org', 'create', '--nmae', 'X', '--help')).toMatchObject({
      kind: 'help',
      text: expect.stringMatching(/^Usage: npx voice-org org create --name N \[--id ID\]/),
    });
    expect(parse('org', 'create', '--name=--help')).toMatchObject({ kind: 'run', flags: { name: '--help' } });
    expect(refusal('org', 'create', '--name', '--help').code).toBe('MISSING_VALUE');
  });

  it('refuses a missing or unknown command with the usage of what could be meant', () => {
    expect(refusal()).toMatchObject({
      code: 'UNKNOWN_COMMAND',
      message: 'No command given.',
      usage: expect.stringContaining('user create'),
    });
    const half = refusal('key');
    expect(half).toMatchObject({
      code: 'UNKNOWN_COMMAND',
      message: 'key needs one of: key create, key revoke, key set-limits, key clear-limits, key list, key adopt.',
    });
    expect(half.usage).not.toContain('user create');
  });
});
