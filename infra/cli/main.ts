import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { createApiKey, revokeApiKey } from '../../shared/domain/admin/api-keys';
import { addMember, createOrganization, createUser } from '../../shared/domain/admin/directory';
import { seedFixture } from '../../shared/domain/admin/fixture';
import { ApiError } from '../../shared/http/errors';
import { parseInput } from '../../shared/http/validation';
import { DisplayName, Email, Id, MemberStatusName, RoleName, ScopeName, Timezone } from '../../shared/schemas/common';
import { Fixture } from '../../shared/schemas/fixture';
import { getUser } from '../../shared/storage/users';
import { loadIdentityProvider } from '../local/identity-provider';
import { parseArgs } from './args';
import { CliError } from './cli-error';
import { resolveTarget, type CliTarget } from './target';

const USAGE = `Usage: npm run cli -- <command> [flags]
  seed --file F.json                                  load a fixture (idempotent)
  org create --name N [--id ID]                       create an organization
  user create --email E --name N [--timezone Z] [--id ID]
  member add --org O --user U --role R [--status S]   R: viewer|member|admin|owner, S: active|pending|removed
  key create --org O [--user U] --scopes a,b          prints {key_id, key}; the key is shown only here
  key revoke --id K
  token --user U [--expires-in SECONDS]               local only: an ID token from the local identity provider
  mail list [--to EMAIL]                              local only: emails the local SES received`;

type Command = (flags: Record<string, string>, target: CliTarget) => Promise<unknown>;

const now = () => new Date();
const flag = <S extends v.GenericSchema>(schema: S, value: unknown, name: string) => parseInput(v.object({ [name]: schema }), { [name]: value })[name] as v.InferOutput<S>;

const COMMANDS: Record<string, Command> = {
  seed: async (flags, { db, settings }) => {
    const file = flag(v.string(), flags.file, 'file');
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CliError('INVALID_FIXTURE', `Cannot read ${file} as JSON: ${(error as Error).message}`);
    }
    const fixture = parseInput(Fixture, raw, { code: 'INVALID_FIXTURE', unknownKey: 'field' });
    if (fixture.settings.length && !settings) {
      throw new CliError('PROFILE_KEY_REQUIRED', 'Settings fixtures encrypt profiles: set PROFILE_KMS_KEY_ARN to the stack\'s ProfileKeyArn output.');
    }
    return seedFixture({ db, settings: settings && { db, ...settings } }, fixture, now());
  },
  'org create': (flags, { db }) => createOrganization(db, { id: flag(v.optional(Id), flags.id, 'id'), name: flag(DisplayName, flags.name, 'name') }, now()),
  'user create': (flags, { db }) =>
    createUser(
      db,
      {
        id: flag(v.optional(Id), flags.id, 'id'),
        email: flag(Email, flags.email, 'email'),
        display_name: flag(DisplayName, flags.name, 'name'),
        timezone: flag(v.optional(Timezone), flags.timezone, 'timezone'),
      },
      now(),
    ),
  'member add': (flags, { db }) =>
    addMember(
      db,
      {
        orgId: flag(Id, flags.org, 'org'),
        userId: flag(Id, flags.user, 'user'),
        role: flag(RoleName, flags.role, 'role'),
        status: flag(v.optional(MemberStatusName), flags.status, 'status'),
      },
      now(),
    ),
  'key create': async (flags, { db }) => {
    const scopes = flag(v.array(ScopeName), flags.scopes?.split(',').map((s) => s.trim()).filter(Boolean), 'scopes');
    const { key_id, key } = await createApiKey(db, { orgId: flag(Id, flags.org, 'org'), userId: flag(v.optional(Id), flags.user, 'user'), scopes }, now());
    return { key_id, key };
  },
  'key revoke': async (flags, { db }) => {
    const { key_id, revoked_at } = await revokeApiKey(db, flag(v.string(), flags.id, 'id'), now());
    return { key_id, revoked_at };
  },
  token: async (flags, { db, local }) => {
    if (!local) throw new CliError('LOCAL_ONLY', 'token mints tokens of the local identity provider; in AWS, sign in through Cognito or your issuer.');
    const userId = flag(Id, flags.user, 'user');
    const expiresIn = flag(v.optional(v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be a whole number of seconds'), v.transform(Number)), '3600'), flags['expires-in'], 'expires-in');
    const user = await getUser(db, userId);
    if (!user) throw new CliError('USER_NOT_FOUND', `User ${userId} does not exist.`);
    const idp = await loadIdentityProvider(local.dataDir, local.issuer, local.audience);
    return { id_token: await idp.issueIdToken({ sub: `local|${user.user_id}`, email: user.email, name: user.display_name }, expiresIn) };
  },
  'mail list': async (flags, { local }) => {
    if (!local) throw new CliError('LOCAL_ONLY', 'mail list reads the local SES emulator; in AWS, read your mailbox.');
    const to = flag(v.optional(Email), flags.to, 'to');
    const store = (await (await fetch(`${local.sesEndpoint}/store`)).json()) as { emails: SesEmail[] };
    return store.emails
      .filter((email) => !to || email.destination.to.some((address) => address.toLowerCase().includes(to)))
      .map((email) => ({
        to: email.destination.to,
        from: email.from,
        subject: email.subject,
        text: email.body.text ?? null,
        html: email.body.html ?? null,
        sent_at: new Date(email.at * (email.at < 1e12 ? 1000 : 1)).toISOString(),
      }));
  },
};

interface SesEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, flags } = parseArgs(argv);
  const name = [positionals.slice(0, 2).join(' '), positionals[0]].find((candidate) => candidate && COMMANDS[candidate]);
  if (!name) throw new CliError('UNKNOWN_COMMAND', positionals.length ? `Unknown command "${positionals.join(' ')}".\n${USAGE}` : USAGE);
  const target = resolveTarget();
  try {
    process.stdout.write(`${JSON.stringify(await COMMANDS[name](flags, target), null, 2)}\n`);
  } finally {
    target.db.client.destroy();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const code = error instanceof CliError || error instanceof ApiError ? error.code : 'CLI_FAILED';
  process.stderr.write(`${JSON.stringify({ error: code, message: (error as Error).message })}\n`);
  process.exitCode = 1;
});
