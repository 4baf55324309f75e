import type { Role } from '../../shared/core/access';
import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import type { Caller } from '../../shared/auth/policy';
import { parseConfig } from '../../shared/config';
import { sendInvitationEmail } from '../../shared/domain/invites/send-invitation-email';
import { listInvites } from '../../shared/domain/invites/list-invites';
import { sendInvite } from '../../shared/domain/invites/send-invite';
import { actorOf } from '../../shared/events/actor';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { createSesMailer } from '../../shared/mail/mailer';
import { withChangeContext } from '../../shared/storage/change-stamp';
import { call, idp, idTokenFor, localDeployment, once, seed, TIMESTAMP, unique } from './api';
import { eventually } from './eventually';
import { eventsInclude } from './events';
import { latestToken } from './invite-mail';
import { buildOrg, seedOrg, STAFF, type Person } from './org-builder';

/**
 * What the suites of the invitation routes and the invitation email (test/integration/invites/)
 * share: the organizations they build (an active owner, admin, member and viewer, a removed and
 * a pending member, org keys of each scope set), their HTTP and mail helpers, invitations made
 * at a chosen time through the domain (a test that needs one sent earlier chooses when, rather
 * than wait), and the organizations several routes' blocks use (once() is per file).
 */

export const { dataDir, runtime, db } = localDeployment();

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Where the accept link points under `npm start`: APP_URL, by default the local API. */
export const appUrl = (process.env.APP_URL ?? runtime.apiUrl).replace(/\/$/, '');

// ---------------------------------------------------------------------------------------
// Organizations and people

export interface Invite {
  id: string;
  email: string;
  role: string;
  status: string;
  created_at: string;
  expires_at: string;
  email_status: string;
  email_sent_at: string | null;
  email_attempts: number;
  email_last_error: string | null;
}

/** The delivery fields of an Invite whose email has not been tried yet (as Send and Resend leave it). */
export const QUEUED = { email_status: 'queued', email_sent_at: null, email_attempts: 0, email_last_error: null } as const;
/** ...and once the consumer's first attempt sent it. */
export const SENT_ONCE = {
  email_status: 'sent',
  email_sent_at: expect.stringMatching(TIMESTAMP),
  email_attempts: 1,
  email_last_error: null,
};

/**
 * An organization with an active owner, admin, member and viewer, a removed and a pending
 * member, and org keys of each scope set.
 */
export function buildInvitesOrg(label = 'inv', names: { org?: string; admin?: string } = {}) {
  return buildOrg({
    label,
    name: names.org,
    people: {
      ...STAFF,
      admin: { ...STAFF.admin, displayName: names.admin },
      removed: { role: 'member', status: 'removed', first: 'rita' },
      pending: { role: 'member', status: 'pending', first: 'pia' },
    },
    keys: {
      read: { scopes: ['invites:read'] },
      write: { scopes: ['invites:write'] },
      /** with users:read, to see the members */
      full: { scopes: ['invites:read', 'invites:write', 'users:read', 'recordings:read'] },
      users: { scopes: ['users:read'] },
      /** both invite scopes, refused for its kind, not its scopes */
      personal: { scopes: ['invites:read', 'invites:write', 'users:read'], user: 'admin' },
    },
  });
}
export type Org = ReturnType<typeof buildInvitesOrg>;

export async function seededOrg(label?: string, names?: { org?: string; admin?: string }): Promise<Org> {
  return seedOrg(buildInvitesOrg(label, names));
}

/** A user who exists but belongs to no organization yet. */
export async function seededUser(label: string): Promise<Person> {
  const id = unique();
  const user = { id: `usr_${label}_${id}`, email: `${label}.${id}@example.com`, display_name: `Guest ${label}` };
  await seed(db, { users: [user] });
  return user;
}

// ---------------------------------------------------------------------------------------
// HTTP and mail helpers

export const base = (org: Org) => `/api/v1/organization/${org.org}/invites`;
export const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });

export const invite = (org: Org, body: unknown, token = org.keys.full) => send('POST', base(org), token, body);
export const list = (org: Org, query = '', token = org.keys.full) => send('GET', `${base(org)}${query ? `?${query}` : ''}`, token);
export const revoke = (org: Org, inviteId: string, token = org.keys.full) => send('DELETE', `${base(org)}/${inviteId}`, token);
export const resend = (org: Org, inviteId: string, token = org.keys.full) => send('POST', `${base(org)}/${inviteId}/resend`, token);
export const accept = (token: string, idToken: string) => send('POST', '/api/v1/organization/invites/accept', idToken, { token });
export const listUsers = (org: Org) => send('GET', `/api/v1/organization/${org.org}/users?limit=100`, org.keys.full);

/** A send that must succeed; returns the Invite. */
export async function invited(org: Org, body: Record<string, unknown>, token = org.keys.full): Promise<Invite> {
  const res = await invite(org, body, token);
  if (res.status !== 201) throw new Error(`POST invites: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The invite functions' settings as the shared deployment configures them (INVITE_TTL_SECONDS and all). */
export const inviteSettings = (env: Record<string, string> = {}) =>
  parseConfig({ TABLE_NAME: runtime.tableName, APP_URL: appUrl, ...env }).invites;

/** The deployment's mailer: what it sends lands in the local SES, where tests read the links. */
export const localMail = createSesMailer({
  fromAddress: inviteSettings().fromAddress,
  region: runtime.region,
  endpoint: runtime.sesEndpoint,
});

/** Waits until the invitation mail consumer is done with the invite's current send (its email sent or failed); returns the Invite as List shows it. */
export async function delivered(org: Org, inviteId: string): Promise<Invite> {
  const found = await eventually(
    async () => (await listed(org)).find((i) => i.id === inviteId),
    (i) => i?.email_status !== 'queued',
  );
  if (!found || found.email_status === 'queued') throw new Error(`invite ${inviteId}: email still queued`);
  return found;
}

/** The invite.created or invite.resent event the deployment published for an invite's latest send. */
export async function sendEventOf(
  org: Org,
  inviteId: string,
  type: 'invite.created' | 'invite.resent' = 'invite.created',
): Promise<DomainEvent> {
  const events = await eventsInclude(org.org, [type], inviteId);
  const event = events.filter((e) => e.type === type && e.resource.id === inviteId).at(-1);
  if (!event) throw new Error(`no ${type} event for ${inviteId}`);
  return event;
}

/** Who sends an invitation outside HTTP: the organization's full key, or its admin (whose name the email shows). */
export function callerOf(org: Org, by: 'key' | 'admin'): Caller {
  if (by === 'admin') {
    const admin = org.people.admin.id;
    return { kind: 'id_token', orgId: org.org, userId: admin, role: 'admin', actor: admin, scopes: [] } as Caller;
  }
  const keyId = apiKeyIdFromHash(hashApiKey(org.keys.full));
  return {
    kind: 'org_key',
    orgId: org.org,
    keyId,
    scopes: ['invites:read', 'invites:write', 'users:read', 'recordings:read'],
    actor: keyId,
  };
}

/**
 * Sends an invitation as Send invite does, at a moment in the past: the domain function with
 * its clock set to `at`, writing the invite, its token and its email guard to the shared table
 * and its email to the local SES. Tests that need time to have passed choose `at` rather than wait.
 */
export async function invitedAt(
  at: Date,
  org: Org,
  body: { email: string; role?: Role },
  options: { by?: 'key' | 'admin'; ttlSeconds?: number } = {},
): Promise<Invite> {
  const caller = callerOf(org, options.by ?? 'key');
  // As a request would: its write names the caller, and so does the email (the event's actor).
  return withChangeContext({ actor: actorOf(caller), correlationId: null }, () =>
    sendInvite({ db, now: () => at, settings: { ttlSeconds: options.ttlSeconds ?? inviteSettings().ttlSeconds } }, caller, {
      email: body.email,
      role: body.role ?? 'member',
    }),
  );
}

/**
 * Delivers the invite's invite.created event (as the deployment published it) to the
 * invitation mail consumer in this process, with its clock at `at`: for invites sent in the
 * past that have expired by now, which the deployment's own consumer leaves alone.
 */
export async function mailedAt(at: Date, org: Org, sent: Invite): Promise<Invite> {
  const event = await sendEventOf(org, sent.id);
  const outcome = await sendInvitationEmail({ db, mail: localMail, now: () => at, settings: { appUrl } }, event, {
    attempt: 1,
    last: false,
  });
  expect(outcome).toEqual({ outcome: 'sent', attempts: 1 });
  return (await listed(org)).find((i) => i.id === sent.id) ?? sent;
}

/** Every invite of an organization (optionally of one status), as List returns them. */
export async function listed(org: Org, status?: string): Promise<Invite[]> {
  const res = await list(org, ['limit=100', status ? `status=${status}` : ''].filter(Boolean).join('&'), org.keys.full);
  if (res.status !== 200) throw new Error(`GET invites: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.invites;
}
export const statusOf = async (org: Org, inviteId: string) => (await listed(org)).find((i) => i.id === inviteId)?.status;

/** The active members as List users reports them: its total, and the entry of one email. */
export async function members(org: Org) {
  const res = await listUsers(org);
  if (res.status !== 200) throw new Error(`GET users: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data as { user_id: string; email: string; display_name: string; role: string; status: string }[];
  return { total: res.body.pagination.total as number, data, find: (email: string) => data.filter((m) => m.email === email.toLowerCase()) };
}

/** Sends an invite and returns it, as List shows it once its email was sent, with the token the email carries. */
export async function invitedWithToken(org: Org, body: { email: string; role?: string }, token = org.keys.full) {
  const sent = await invited(org, body, token);
  const emailed = await latestToken(body.email);
  return { invite: await delivered(org, sent.id), token: emailed };
}

/** An ID token for someone the service may not know yet (an arbitrary subject and email). */
export async function idTokenOf(claims: { email: string; name?: string; emailVerified?: boolean }) {
  return (await idp()).issueIdToken({ sub: `local|new_${unique()}`, ...claims });
}

// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// Organizations several routes' blocks share

/**
 * Two invitations that lived INVITE_TTL_SECONDS=2 (the deployment's configuration parsed as
 * it parses it), sent a minute ago by the domain function with its clock set then, and
 * emailed then (the consumer in this process with the same clock; the deployment's own
 * consumer finds them expired and sends nothing): expired, with nothing to wait for.
 */
export const expiredInvites = once(async () => {
  const ttlSeconds = inviteSettings({ INVITE_TTL_SECONDS: '2' }).ttlSeconds;
  const org = await seededOrg('exp');
  const sentAt = new Date(Date.now() - MINUTE_MS);
  const first = await mailedAt(sentAt, org, await invitedAt(sentAt, org, { email: org.address('late') }, { ttlSeconds }));
  const renewable = await mailedAt(sentAt, org, await invitedAt(sentAt, org, { email: org.address('renewed') }, { ttlSeconds }));
  const [firstToken, renewableToken] = await Promise.all([latestToken(first.email), latestToken(renewable.email)]);
  expect(Date.parse(first.expires_at) - Date.parse(first.created_at)).toBe(2000);
  // Pending while they lived: List as it answered when they were sent...
  const then = await listInvites({ db, now: () => sentAt }, org.org, { status: 'pending', page: 1, limit: 100 });
  expect(then.data.map((i) => i.id).sort()).toEqual([first.id, renewable.id].sort());
  // ...and past expires_at now.
  expect(Date.parse(renewable.expires_at)).toBeLessThan(Date.now());
  return { org, first, renewable, firstToken, renewableToken };
});

/** An organization to revoke and resend in, and another one whose credentials must not reach its invites. */
export const revocations = once(async () => {
  const [org, other] = await Promise.all([seededOrg('revoke'), seededOrg('revoke_other')]);
  return { org, other };
});

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits (admin), and
 * an org key with only the route's scope.
 */
export const READERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with invites:read only', async (org: Org) => org.keys.read],
] as const;
export const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with invites:write only', async (org: Org) => org.keys.write],
] as const;
/** The part of an address naming a writer. */
export const nameOf = (caller: string) => caller.replace(/\W+/g, '.').replace(/^\.|\.$/g, '');

/** The organization of the callers blocks, with one pending invite per writer to revoke and one to resend. */
export const callers = once(async () => {
  const org = await seededOrg('callers');
  const revocable: Record<string, Invite> = {};
  const resendable: Record<string, Invite> = {};
  // Side by side: each writer's invites go to addresses of their own; their emails sent before the tests act on them.
  await Promise.all(
    WRITERS.map(async ([caller]) => {
      revocable[caller] = await invited(org, { email: org.address(`revoke.${nameOf(caller)}`) });
      resendable[caller] = await invited(org, { email: org.address(`resend.${nameOf(caller)}`) });
    }),
  );
  await Promise.all(Object.values(resendable).map((sent) => delivered(org, sent.id)));
  return { org, revocable, resendable };
});

// ---------------------------------------------------------------------------------------
