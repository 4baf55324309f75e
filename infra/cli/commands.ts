import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { adoptUnmanagedApiKeys, createApiKey, revokeApiKey } from '../../shared/operator-tasks/api-keys';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { rebuildDerivedIndexes } from '../../shared/operator-tasks/derived-indexes';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { listAllApiKeys, listAllInvites, listAllMembers } from '../../shared/operator-tasks/org-listings';
import { parseInput } from '../../shared/schemas/validation';
import { DisplayName, Email, Id, MemberStatusName, RoleName, ScopeName, Timezone } from '../../shared/schemas/common';
import { Fixture } from '../../shared/schemas/fixture';
import { INVITE_STATUSES } from '../../shared/schemas/invites';
import { findUserIdByEmail, getUser } from '../../shared/storage/users';
import { loadIdentityProvider } from '../local/identity-provider';
import { CliError } from './cli-error';
import { AUDIT_COMMANDS } from './audit-commands';
import { flag, type CommandSpec } from './command-line';
import { EVENT_COMMANDS } from './event-commands';
import { LIMIT_COMMANDS, optionalKeyRateLimit } from './limit-commands';
import { ERASURE_COMMANDS } from './erasure-commands';
import { RETENTION_COMMANDS } from './retention-commands';
import { SEARCH_COMMANDS } from './search-commands';
import { WEBHOOK_COMMANDS } from './webhook-commands';
import type { CliTarget } from './target';

const now = () => new Date();

/** The admin CLI's commands, in the order its usage lists them; main.ts parses their flags strictly (command-line.ts) and runs them. */
export const COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  seed: {
    summary: 'load a fixture (idempotent)',
    notes: 'The fixture format is in docs/fixtures.md. Settings fixtures encrypt profiles: in AWS set PROFILE_KMS_KEY_ARN too.',
    flags: { file: { placeholder: 'F.json', required: true, description: 'the fixture file' } },
    run: async (flags, { db, settings, trashRetentionDays }) => {
      const file = flag(v.string(), flags.file, 'file');
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new CliError('INVALID_FIXTURE', `Cannot read ${file} as JSON: ${(error as Error).message}`);
      }
      const fixture = parseInput(Fixture, raw, { code: 'INVALID_FIXTURE', unknownKey: 'field' });
      if (fixture.settings.length && !settings) {
        throw new CliError(
          'PROFILE_KEY_REQUIRED',
          "Settings fixtures encrypt profiles: set PROFILE_KMS_KEY_ARN to the stack's ProfileKeyArn output.",
        );
      }
      return seedFixture({ db, trashRetentionDays, settings: settings && { db, ...settings } }, fixture, now());
    },
  },
  reindex: {
    summary: "build an organization's member search index, recording day counts and templates' order keys, and its missing trash timers",
    notes:
      "Needed once for an organization created before they existed (until then its `q` searches, date-range totals and List templates read every item they cover); `seed` does it for the organizations it loads. Rebuilds them from the organization's items even when complete. Run it while the organization is quiet: writes racing it may be missed.",
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    run: (flags, { db, trashRetentionDays }) =>
      rebuildDerivedIndexes(db, flag(Id, flags.org, 'org'), now(), { force: true, trashRetentionDays }),
  },
  ...SEARCH_COMMANDS,
  'org create': {
    summary: 'create an organization',
    flags: {
      name: { placeholder: 'N', required: true, description: 'its display name' },
      id: { placeholder: 'ID', description: 'its id (default: a new org_… id)' },
    },
    run: (flags, { db }) =>
      createOrganization(db, { id: flag(v.optional(Id), flags.id, 'id'), name: flag(DisplayName, flags.name, 'name') }, now()),
  },
  ...Object.fromEntries(Object.entries(LIMIT_COMMANDS).filter(([name]) => name.startsWith('org '))),
  'user create': {
    summary: 'create a user',
    flags: {
      email: { placeholder: 'E', required: true, description: 'their email address (unique, compared without case)' },
      name: { placeholder: 'N', required: true, description: 'their display name' },
      timezone: { placeholder: 'Z', description: 'an IANA time zone such as Europe/Paris (default: UTC)' },
      id: { placeholder: 'ID', description: 'their id (default: a new usr_… id)' },
    },
    run: (flags, { db }) =>
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
  },
  'member add': {
    summary: 'add a user to an organization',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization id' },
      user: { placeholder: 'U', required: true, description: 'the user id' },
      role: { placeholder: 'R', required: true, description: 'viewer, member, admin or owner' },
      status: { placeholder: 'S', description: 'active, pending or removed (default: active)' },
    },
    run: (flags, { db }) =>
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
  },
  'member list': {
    summary: "list an organization's active members, by email",
    notes: 'The whole list as one JSON array, as List users shows each member (pending and removed memberships are not listed, as there).',
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    run: (flags, { db }) => listAllMembers(db, flag(Id, flags.org, 'org')),
  },
  'key create': {
    summary: 'create an API key; prints {key_id, key}, the key is shown only here',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization the key acts for' },
      user: { placeholder: 'U', description: "a member: the key is that member's personal key (pk_user_…)" },
      scopes: { placeholder: 'a,b', required: true, description: 'comma-separated scopes, such as users:read,users:write' },
      name: { placeholder: 'N', description: 'what the key is for, shown in key lists (default "Operator key")' },
      rate: { placeholder: 'R', description: "the key's own rate limit, with --burst (see key set-limits)" },
      burst: { placeholder: 'B', description: "the key's own burst, with --rate" },
    },
    run: async (flags, { db }) => {
      const scopes = flag(
        v.array(ScopeName),
        flags.scopes
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        'scopes',
      );
      const name = flag(v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))), flags.name, 'name');
      const rateLimit = optionalKeyRateLimit(flags);
      const { key_id, key } = await createApiKey(
        db,
        { orgId: flag(Id, flags.org, 'org'), userId: flag(v.optional(Id), flags.user, 'user'), scopes, name, rateLimit },
        now(),
      );
      return { key_id, key, ...(rateLimit ? { rate_limit: rateLimit } : {}) };
    },
  },
  'key revoke': {
    summary: 'revoke an API key',
    flags: { id: { placeholder: 'K', required: true, description: 'the key id (key_…)' } },
    run: async (flags, { db }) => {
      const { key_id, revoked_at } = await revokeApiKey(db, flag(v.string(), flags.id, 'id'), now());
      return { key_id, revoked_at };
    },
  },
  ...Object.fromEntries(Object.entries(LIMIT_COMMANDS).filter(([name]) => name.startsWith('key '))),
  'key list': {
    summary: "list an organization's API keys, newest first (never their secrets)",
    notes: 'The whole list as one JSON array, as List API keys shows each key: revoked and expired keys included, with their status.',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization id' },
      user: { placeholder: 'U', description: "only this member's personal keys" },
    },
    run: (flags, { db }) => listAllApiKeys(db, flag(Id, flags.org, 'org'), { userId: flag(v.optional(Id), flags.user, 'user') }, now()),
  },
  'key adopt': {
    summary: 'once after upgrading: adopt the keys created before the key API, so List API keys shows them',
    notes: [
      'Such a key is only its secret item: it works, but List API keys does not show it. Each gets its managed item as it is',
      '(an "Operator key" with its scopes, creation time and revocation; no api_key.created event), and prints {adopted, already_managed}.',
      'It finds them with a Scan of the whole key-id index (GSI2): run it once, not routinely. Running it again adopts nothing new.',
    ].join('\n'),
    flags: { org: { placeholder: 'O', description: "only this organization's keys (the Scan still reads the whole index)" } },
    run: (flags, { db }) => adoptUnmanagedApiKeys(db, { orgId: flag(v.optional(Id), flags.org, 'org') }),
  },
  'invite list': {
    summary: "list an organization's invitations, newest first",
    notes: 'The whole list as one JSON array, as List invites shows each invitation (with its email delivery; never its token).',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization id' },
      status: { placeholder: 'S', description: `only invitations in this status: ${INVITE_STATUSES.join(', ')}` },
    },
    run: (flags, { db }) =>
      listAllInvites(
        db,
        flag(Id, flags.org, 'org'),
        { status: flag(v.optional(v.picklist(INVITE_STATUSES, `must be one of ${INVITE_STATUSES.join(', ')}`)), flags.status, 'status') },
        now(),
      ),
  },
  token: {
    summary: 'local only: an ID token from the local identity provider, for a user or for an email',
    notes: [
      'With --user, or --email of an existing user: a token of that user. With --email of no user yet: a token of a new',
      'person with that verified email (subject local|email:<email>), who becomes a user by accepting an invitation to it:',
      '  POST /api/v1/organization/invites/accept {"token": "<the token of the invitation link>"} with this ID token.',
    ].join('\n'),
    flags: {
      user: { placeholder: 'U', description: 'the user id the token is for' },
      email: { placeholder: 'E', description: 'the email the token is for: its user, or a new person when no user has it' },
      name: {
        placeholder: 'N',
        description: "the name claim of a new person's token (the display name acceptance gives them; default: the email's local part)",
      },
      'expires-in': {
        placeholder: 'SECONDS',
        description: 'lifetime in seconds (default: 3600; negative for an expired token, as --expires-in=-30)',
      },
    },
    run: async (flags, { db, local }) => {
      if (!local)
        throw new CliError(
          'LOCAL_ONLY',
          'token mints tokens of the local identity provider; in AWS, sign in through Cognito or your issuer.',
        );
      if ((flags.user === undefined) === (flags.email === undefined))
        throw new CliError('INVALID_FLAGS', 'token takes --user U or --email E (one of them).');
      const expiresIn = flag(
        v.optional(v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be a whole number of seconds'), v.transform(Number)), '3600'),
        flags['expires-in'],
        'expires-in',
      );
      const name = flag(v.optional(DisplayName), flags.name, 'name');
      const idp = await loadIdentityProvider(local.dataDir, local.issuer, local.audience);
      const email = flags.email === undefined ? undefined : flag(Email, flags.email, 'email');
      const userId = email === undefined ? flag(Id, flags.user, 'user') : await findUserIdByEmail(db, email);
      const user = userId === undefined ? undefined : await getUser(db, userId);
      if (!user) {
        if (email === undefined) throw new CliError('USER_NOT_FOUND', `User ${userId} does not exist.`);
        return { id_token: await idp.issueIdToken({ sub: `local|email:${email}`, email, name }, expiresIn) };
      }
      if (name !== undefined)
        throw new CliError(
          'USER_EXISTS',
          `${user.email} is user ${user.user_id} (${user.display_name}): their token carries their own name, leave out --name.`,
        );
      return { id_token: await idp.issueIdToken({ sub: `local|${user.user_id}`, email: user.email, name: user.display_name }, expiresIn) };
    },
  },
  'mail list': {
    summary: 'local only: the emails the local SES emulator received',
    flags: { to: { placeholder: 'EMAIL', description: 'only emails to this address' } },
    run: async (flags, { local }) => {
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
  },
  ...EVENT_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...AUDIT_COMMANDS,
  ...RETENTION_COMMANDS,
  ...ERASURE_COMMANDS,
};

interface SesEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}
