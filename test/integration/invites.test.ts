import { createHash, randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../shared/core/access';
import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import type { Caller } from '../../shared/auth/policy';
import { parseConfig } from '../../shared/config';
import { sendInvitationEmail } from '../../shared/domain/invites/invitation-mail';
import { listOrganizationInvites, sendInvite } from '../../shared/domain/invites/invites';
import { eventConsumer } from '../../shared/events/event-consumer';
import { actorOf } from '../../shared/events/actor';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { createSesMailer, MailError } from '../../shared/mail/mailer';
import { EVENT_CONSUMERS } from '../../shared/events/event-functions';
import { withChangeContext } from '../../shared/storage/change-stamp';
import { call, expectFailure, idp, idTokenFor, localDeployment, once, seed, sentEmails, TIMESTAMP, type ApiResponse, unique } from '../support/api';
import { eventually } from '../support/eventually';
import { eventsInclude, queuedEvents } from '../support/events';
import { emailsTo, latestToken, tokenIn } from '../support/invite-mail';
import { buildOrg, seedOrg, STAFF, type Person } from '../support/org-builder';
import { runCli } from '../support/cli';

/**
 * Organization invitations end to end: HTTP -> local API Gateway emulator -> authorizer ->
 * handler -> DynamoDB Local, and the invitation email sent by the deployment's invitation
 * mail consumer (its event pipeline: the table's stream -> processor -> consumer) through
 * the local SES emulator. Send, Accept, Revoke, Resend and List, each rule of issue 5 (and
 * docs/decisions.md, "Invitations") and the email's delivery state of issue 11, with a test
 * that fails when the rule breaks. Tests read the accept link from the email the emulator
 * received, as a user would (waiting for it: it leaves after the request answered), and
 * each builds its own organization.
 */
const { dataDir, runtime, db } = localDeployment();

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Where the accept link points under `npm start`: APP_URL, by default the local API. */
const appUrl = (process.env.APP_URL ?? runtime.apiUrl).replace(/\/$/, '');

// ---------------------------------------------------------------------------------------
// Organizations and people

interface Invite {
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
const QUEUED = { email_status: 'queued', email_sent_at: null, email_attempts: 0, email_last_error: null } as const;
/** ...and once the consumer's first attempt sent it. */
const SENT_ONCE = { email_status: 'sent', email_sent_at: expect.stringMatching(TIMESTAMP), email_attempts: 1, email_last_error: null };

/**
 * An organization with an active owner, admin, member and viewer, a removed and a pending
 * member, and org keys of each scope set.
 */
function buildInvitesOrg(label = 'inv', names: { org?: string; admin?: string } = {}) {
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
type Org = ReturnType<typeof buildInvitesOrg>;

async function seededOrg(label?: string, names?: { org?: string; admin?: string }): Promise<Org> {
  return seedOrg(buildInvitesOrg(label, names));
}

/** A user who exists but belongs to no organization yet. */
async function seededUser(label: string): Promise<Person> {
  const id = unique();
  const user = { id: `usr_${label}_${id}`, email: `${label}.${id}@example.com`, display_name: `Guest ${label}` };
  await seed(db, { users: [user] });
  return user;
}

// ---------------------------------------------------------------------------------------
// HTTP and mail helpers

const base = (org: Org) => `/api/v1/organization/${org.org}/invites`;
const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });

const invite = (org: Org, body: unknown, token = org.keys.full) => send('POST', base(org), token, body);
const list = (org: Org, query = '', token = org.keys.full) => send('GET', `${base(org)}${query ? `?${query}` : ''}`, token);
const revoke = (org: Org, inviteId: string, token = org.keys.full) => send('DELETE', `${base(org)}/${inviteId}`, token);
const resend = (org: Org, inviteId: string, token = org.keys.full) => send('POST', `${base(org)}/${inviteId}/resend`, token);
const accept = (token: string, idToken: string) => send('POST', '/api/v1/organization/invites/accept', idToken, { token });
const listUsers = (org: Org) => send('GET', `/api/v1/organization/${org.org}/users?limit=100`, org.keys.full);

/** A send that must succeed; returns the Invite. */
async function invited(org: Org, body: Record<string, unknown>, token = org.keys.full): Promise<Invite> {
  const res = await invite(org, body, token);
  if (res.status !== 201) throw new Error(`POST invites: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The invite functions' settings as the shared deployment configures them (INVITE_TTL_SECONDS and all). */
const inviteSettings = (env: Record<string, string> = {}) => parseConfig({ TABLE_NAME: runtime.tableName, APP_URL: appUrl, ...env }).invites;

/** The deployment's mailer: what it sends lands in the local SES, where tests read the links. */
const localMail = createSesMailer({ fromAddress: inviteSettings().fromAddress, region: runtime.region, endpoint: runtime.sesEndpoint });

/** Waits until the invitation mail consumer is done with the invite's current send (its email sent or failed); returns the Invite as List shows it. */
async function delivered(org: Org, inviteId: string): Promise<Invite> {
  const found = await eventually(async () => (await listed(org)).find((i) => i.id === inviteId), (i) => i?.email_status !== 'queued');
  if (!found || found.email_status === 'queued') throw new Error(`invite ${inviteId}: email still queued`);
  return found;
}

/** The invite.created or invite.resent event the deployment published for an invite's latest send. */
async function sendEventOf(org: Org, inviteId: string, type: 'invite.created' | 'invite.resent' = 'invite.created'): Promise<DomainEvent> {
  const events = await eventsInclude(org.org, [type], inviteId);
  const event = events.filter((e) => e.type === type && e.resource.id === inviteId).at(-1);
  if (!event) throw new Error(`no ${type} event for ${inviteId}`);
  return event;
}

/** Who sends an invitation outside HTTP: the organization's full key, or its admin (whose name the email shows). */
function callerOf(org: Org, by: 'key' | 'admin'): Caller {
  if (by === 'admin') {
    const admin = org.people.admin.id;
    return { kind: 'id_token', orgId: org.org, userId: admin, role: 'admin', actor: admin, scopes: [] } as Caller;
  }
  const keyId = apiKeyIdFromHash(hashApiKey(org.keys.full));
  return { kind: 'org_key', orgId: org.org, keyId, scopes: ['invites:read', 'invites:write', 'users:read', 'recordings:read'], actor: keyId };
}

/**
 * Sends an invitation as Send invite does, at a moment in the past: the domain function with
 * its clock set to `at`, writing the invite, its token and its email guard to the shared table
 * and its email to the local SES. Tests that need time to have passed choose `at` rather than wait.
 */
async function invitedAt(at: Date, org: Org, body: { email: string; role?: Role }, options: { by?: 'key' | 'admin'; ttlSeconds?: number } = {}): Promise<Invite> {
  const caller = callerOf(org, options.by ?? 'key');
  // As a request would: its write names the caller, and so does the email (the event's actor).
  return withChangeContext({ actor: actorOf(caller), correlationId: null }, () =>
    sendInvite({ db, now: () => at, settings: { ttlSeconds: options.ttlSeconds ?? inviteSettings().ttlSeconds } }, caller, { email: body.email, role: body.role ?? 'member' }),
  );
}

/**
 * Delivers the invite's invite.created event (as the deployment published it) to the
 * invitation mail consumer in this process, with its clock at `at`: for invites sent in the
 * past that have expired by now, which the deployment's own consumer leaves alone.
 */
async function mailedAt(at: Date, org: Org, sent: Invite): Promise<Invite> {
  const event = await sendEventOf(org, sent.id);
  const outcome = await sendInvitationEmail({ db, mail: localMail, now: () => at, settings: { appUrl } }, event, { attempt: 1, last: false });
  expect(outcome).toEqual({ outcome: 'sent', attempts: 1 });
  return (await listed(org)).find((i) => i.id === sent.id) ?? sent;
}

/** Every invite of an organization (optionally of one status), as List returns them. */
async function listed(org: Org, status?: string): Promise<Invite[]> {
  const res = await list(org, ['limit=100', status ? `status=${status}` : ''].filter(Boolean).join('&'), org.keys.full);
  if (res.status !== 200) throw new Error(`GET invites: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.invites;
}
const statusOf = async (org: Org, inviteId: string) => (await listed(org)).find((i) => i.id === inviteId)?.status;

/** The active members as List users reports them: its total, and the entry of one email. */
async function members(org: Org) {
  const res = await listUsers(org);
  if (res.status !== 200) throw new Error(`GET users: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data as { user_id: string; email: string; display_name: string; role: string; status: string }[];
  return { total: res.body.pagination.total as number, data, find: (email: string) => data.filter((m) => m.email === email.toLowerCase()) };
}

/** Sends an invite and returns it, as List shows it once its email was sent, with the token the email carries. */
async function invitedWithToken(org: Org, body: { email: string; role?: string }, token = org.keys.full) {
  const sent = await invited(org, body, token);
  const emailed = await latestToken(body.email);
  return { invite: await delivered(org, sent.id), token: emailed };
}

/** An ID token for someone the service may not know yet (an arbitrary subject and email). */
async function idTokenOf(claims: { email: string; name?: string; emailVerified?: boolean }) {
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
const expiredInvites = once(async () => {
  const ttlSeconds = inviteSettings({ INVITE_TTL_SECONDS: '2' }).ttlSeconds;
  const org = await seededOrg('exp');
  const sentAt = new Date(Date.now() - MINUTE_MS);
  const first = await mailedAt(sentAt, org, await invitedAt(sentAt, org, { email: org.address('late') }, { ttlSeconds }));
  const renewable = await mailedAt(sentAt, org, await invitedAt(sentAt, org, { email: org.address('renewed') }, { ttlSeconds }));
  const [firstToken, renewableToken] = await Promise.all([latestToken(first.email), latestToken(renewable.email)]);
  expect(Date.parse(first.expires_at) - Date.parse(first.created_at)).toBe(2000);
  // Pending while they lived: List as it answered when they were sent...
  const then = await listOrganizationInvites({ db, now: () => sentAt }, org.org, { status: 'pending', page: 1, limit: 100 });
  expect(then.data.map((i) => i.id).sort()).toEqual([first.id, renewable.id].sort());
  // ...and past expires_at now.
  expect(Date.parse(renewable.expires_at)).toBeLessThan(Date.now());
  return { org, first, renewable, firstToken, renewableToken };
});

/** An organization to revoke and resend in, and another one whose credentials must not reach its invites. */
const revocations = once(async () => {
  const [org, other] = await Promise.all([seededOrg('revoke'), seededOrg('revoke_other')]);
  return { org, other };
});

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits (admin), and
 * an org key with only the route's scope.
 */
const READERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with invites:read only', async (org: Org) => org.keys.read],
] as const;
const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with invites:write only', async (org: Org) => org.keys.write],
] as const;
/** The part of an address naming a writer. */
const nameOf = (caller: string) => caller.replace(/\W+/g, '.').replace(/^\.|\.$/g, '');

/** The organization of the callers blocks, with one pending invite per writer to revoke and one to resend. */
const callers = once(async () => {
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

describe('POST /api/v1/organization/{orgId}/invites', () => {
  describe('results', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('send');
    });

    it('an admin invites: 201 with the Invite (email lower-cased, role member by default, pending, 7 days)', async () => {
      const address = `New.Person.${org.id}@Example.COM`;
      const before = Date.now();
      const res = await invite(org, { email: address }, await idTokenFor(org.people.admin));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^inv_/),
        email: address.toLowerCase(),
        role: 'member',
        status: 'pending',
        created_at: expect.stringMatching(TIMESTAMP),
        expires_at: expect.stringMatching(TIMESTAMP),
        ...QUEUED,
      });
      expect(Math.abs(Date.parse(res.body.created_at) - before)).toBeLessThan(60_000);
      expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(7 * DAY_MS);
      // Listed as answered (its email's delivery may have moved on since).
      const { email_status: _s, email_sent_at: _at, email_attempts: _n, email_last_error: _e, ...invitation } = res.body;
      expect(await listed(org, 'pending')).toContainEqual(expect.objectContaining(invitation));
    });

    it('answers before the email leaves (email_status queued, nothing tried); the consumer then sends it and the Invite says so', async () => {
      const address = org.address('queued');
      const res = await invite(org, { email: address });
      expect(res.status).toBe(201);
      // The answer was built before any attempt to send: the request does not wait for the mail server.
      expect(res.body).toMatchObject(QUEUED);

      const [email] = await emailsTo(address);
      const sent = await delivered(org, res.body.id);
      expect(sent).toEqual({ ...res.body, ...SENT_ONCE });
      expect(Date.parse(sent.email_sent_at ?? '')).toBeGreaterThanOrEqual(Date.parse(res.body.created_at));
      expect(email.subject).toBe(`An administrator invited you to join ${org.orgName} on Voice Org`);
      // The processor published the send and the delivery: invite.created, then invite.email_sent.
      const events = await eventsInclude(org.org, ['invite.created', 'invite.email_sent'], res.body.id);
      expect(events.find((e) => e.type === 'invite.email_sent' && e.resource.id === res.body.id)).toMatchObject({ actor: null, data: { email: address, attempts: 1 } });
    });

    it('the email arrives in the local SES (read with `cli mail list`): subject, text and HTML name the organization and the inviter, with the accept link', async () => {
      const address = org.address('mail');
      const sent = await invited(org, { email: address, role: 'viewer' }, await idTokenFor(org.people.admin));
      await emailsTo(address);

      const mail = await runCli(['mail', 'list', '--to', address], { LOCAL_DATA_DIR: dataDir });
      expect(mail.code).toBe(0);
      expect(mail.json).toHaveLength(1);
      const [email] = mail.json as { to: string[]; from: string; subject: string; text: string; html: string }[];
      expect(email.to).toEqual([address]);
      expect(email.from).toMatch(/@/);
      expect(email.subject).toBe(`adam admin invited you to join ${org.orgName} on Voice Org`);

      const token = /\/invites\/accept\?token=([A-Za-z0-9_-]+)/.exec(email.text)![1];
      const link = `${appUrl}/invites/accept?token=${token}`;
      // At least 128 random bits.
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
      for (const part of [email.text, email.html]) {
        expect(part).toContain(org.orgName);
        expect(part).toContain('adam admin');
        expect(part).toContain('viewer');
      }
      expect(email.text).toContain(link);
      expect(email.html).toContain(`href="${link}"`);
      expect(email.html).toMatch(/^<!doctype html>/i);

      // The link works: the invited person accepts with it.
      const user = await idTokenOf({ email: address });
      expect((await accept(token, user)).body).toEqual({ org_id: org.org, role: 'viewer', status: 'active' });
      expect(await statusOf(org, sent.id)).toBe('accepted');
    });

    it('every invitation has its own token, stored only as its SHA-256 (the plaintext is nowhere in the table)', async () => {
      const a = await invitedWithToken(org, { email: org.address('hash.a') });
      const b = await invitedWithToken(org, { email: org.address('hash.b') });
      expect(a.token).not.toBe(b.token);

      const items: Record<string, unknown>[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await db.client.send(new ScanCommand({ TableName: db.tableName, ExclusiveStartKey }));
        items.push(...(page.Items ?? []));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      const table = JSON.stringify(items);
      for (const { token } of [a, b]) {
        expect(table).not.toContain(token);
        expect(table).toContain(createHash('sha256').update(token).digest('hex'));
      }
    });

    it('an org key with invites:write invites; the email names "An administrator"', async () => {
      const address = org.address('bykey');
      const res = await invite(org, { email: address, role: 'admin' }, org.keys.write);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ email: address, role: 'admin', status: 'pending' });
      const [email] = await emailsTo(address);
      expect(email.subject).toBe(`An administrator invited you to join ${org.orgName} on Voice Org`);
    });

    it('names from user input are HTML-escaped in the HTML part and raw in the text part', async () => {
      const orgName = 'Ben & Jerry <script>alert("org")</script>';
      const adminName = 'Eve <script>steal()</script> & Co';
      const nasty = await seededOrg('html', { org: orgName, admin: adminName });
      const address = nasty.address('escape');
      await invited(nasty, { email: address }, await idTokenFor(nasty.people.admin));

      const [email] = await emailsTo(address);
      const { text = '', html = '' } = email.body;
      expect(email.subject).toBe(`${adminName} invited you to join ${orgName} on Voice Org`);
      expect(text).toContain(orgName);
      expect(text).toContain(adminName);

      expect(html).not.toMatch(/<script/i);
      expect(html).toContain('Eve &lt;script&gt;steal()&lt;/script&gt; &amp; Co');
      expect(html).toMatch(/Ben &amp; Jerry &lt;script&gt;alert\((&quot;|&#34;|&#x22;)org(&quot;|&#34;|&#x22;)\)&lt;\/script&gt;/i);
      // Every & left in the HTML starts an entity.
      expect(html).not.toMatch(/&(?!(?:[a-z]+|#\d+|#x[0-9a-f]+);)/i);
      // The link still works.
      expect((await accept(tokenIn(email), await idTokenOf({ email: address }))).status).toBe(200);
    });
  });

  describe('duplicates', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('dup');
    });

    it('a second invite of the same email (in any case) is 409 INVITE_PENDING; one invite, one email', async () => {
      const address = org.address('twice');
      const first = await invited(org, { email: address });
      const again = await invite(org, { email: address.toUpperCase(), role: 'admin' });
      expectFailure(again, 409, 'INVITE_PENDING');
      // Once the one invite's email was sent: one invite, one email.
      expect(await delivered(org, first.id)).toEqual({ ...first, ...SENT_ONCE });
      expect((await listed(org)).filter((i) => i.email === address).map((i) => i.id)).toEqual([first.id]);
      expect(await sentEmails(address)).toHaveLength(1);
    });

    it('5 concurrent invitations of one email: exactly one 201, four 409 INVITE_PENDING, one email', async () => {
      const address = org.address('racing.sends');
      const results = await Promise.all(Array.from({ length: 5 }, () => invite(org, { email: address })));
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 201)) expectFailure(r, 409, 'INVITE_PENDING');
      expect((await listed(org)).filter((i) => i.email === address)).toHaveLength(1);
      await delivered(org, created[0]?.body.id);
      expect(await sentEmails(address)).toHaveLength(1);
    });

    it.each(['owner', 'admin', 'member', 'viewer'] as const)('the email of an active %s is 409 ALREADY_MEMBER, no invite, no email', async (name) => {
      const { email } = org.people[name];
      const res = await invite(org, { email: email.toUpperCase(), role: 'viewer' });
      expectFailure(res, 409, 'ALREADY_MEMBER');
      expect((await listed(org)).filter((i) => i.email === email)).toEqual([]);
      expect(await sentEmails(email)).toEqual([]);
    });

    it.each(['removed', 'pending'] as const)('a %s member’s email can be invited; accepting makes them active with the invite’s role', async (name) => {
      const person = org.people[name];
      const { token } = await invitedWithToken(org, { email: person.email, role: 'admin' });
      const before = await members(org);
      expect(before.find(person.email)).toEqual([]);

      expect((await accept(token, await idTokenFor(person))).body).toEqual({ org_id: org.org, role: 'admin', status: 'active' });
      const after = await members(org);
      expect(after.total).toBe(before.total + 1);
      expect(after.find(person.email)).toEqual([expect.objectContaining({ user_id: person.id, role: 'admin', status: 'active' })]);
    });
  });

  describe('roles and validation', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('roles');
    });

    it.each(['viewer', 'member', 'admin'] as const)('an admin invites a %s', async (role) => {
      const res = await invite(org, { email: org.address(`role.${role}`), role }, await idTokenFor(org.people.admin));
      expect(res.status).toBe(201);
      expect(res.body.role).toBe(role);
    });

    it('only an owner invites an owner: an admin’s ID token and an org key are 403 INSUFFICIENT_ROLE', async () => {
      const byAdmin = org.address('owner.by.admin');
      const byKey = org.address('owner.by.key');
      expectFailure(await invite(org, { email: byAdmin, role: 'owner' }, await idTokenFor(org.people.admin)), 403, 'INSUFFICIENT_ROLE');
      expectFailure(await invite(org, { email: byKey, role: 'owner' }, org.keys.full), 403, 'INSUFFICIENT_ROLE');
      const emails = (await listed(org)).map((i) => i.email);
      expect(emails).not.toContain(byAdmin);
      expect(emails).not.toContain(byKey);
      expect(await sentEmails(byAdmin)).toEqual([]);

      const byOwner = org.address('owner.by.owner');
      const res = await invite(org, { email: byOwner, role: 'owner' }, await idTokenFor(org.people.owner));
      expect(res.status).toBe(201);
      expect(res.body.role).toBe('owner');
      expect((await accept(await latestToken(byOwner), await idTokenOf({ email: byOwner }))).body).toEqual({ org_id: org.org, role: 'owner', status: 'active' });
      expect((await members(org)).find(byOwner)).toEqual([expect.objectContaining({ role: 'owner' })]);
    });

    it.each<[string, unknown, string]>([
      ['an unknown role', { role: 'superuser' }, 'role'],
      ['a role in capitals', { role: 'Admin' }, 'role'],
      ['a null role', { role: null }, 'role'],
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['an empty email', { email: '' }, 'email'],
      ['an email that is not a string', { email: 42 }, 'email'],
      ['no email', { email: undefined }, 'email'],
      ['an unknown field', { message: 'Welcome!' }, 'message'],
      ['a read-only field', { status: 'accepted' }, 'status'],
    ])('%s is 400 VALIDATION_ERROR naming the field; nothing is sent', async (_, fields, field) => {
      const address = org.address(`invalid.${field}`);
      const res = await invite(org, { email: address, ...(fields as object) });
      expectFailure(res, 400, 'VALIDATION_ERROR');
      expect(res.body.details).toContainEqual(expect.objectContaining({ field }));
      expect((await listed(org)).map((i) => i.email)).not.toContain(address);
      expect(await sentEmails(address)).toEqual([]);
    });
  });

  describe('after an invitation expired', () => {
    let org: Org;
    let first: Invite;
    let firstToken: string;
    beforeAll(async () => {
      ({ org, first, firstToken } = await expiredInvites());
    });

    it('a new invitation for the same email is then allowed, and its link works', async () => {
      const again = await invite(org, { email: first.email }, org.keys.full);
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(first.id);
      const token = await latestToken(first.email, 2);
      expect(token).not.toBe(firstToken);
      expect((await accept(token, await idTokenOf({ email: first.email }))).body).toEqual({ org_id: org.org, role: 'member', status: 'active' });
    });
  });

  describe('the TTL attribute (expiry by DynamoDB)', () => {
    it('pending invites and their token carry the TTL attribute at expires_at; accepted invites drop it', async () => {
      const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
      const { TABLE } = await import('../../shared/storage/table-definition');
      const org = await seededOrg('ttl');
      const address = `ttl.${org.id}@example.com`;
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      const raw = async (key: Record<string, string>) => (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;
      const inviteKey = { PK: `ORG#${org.org}`, SK: `INVITE#${sent.id}` };
      const tokenKey = { PK: `INVITETOKEN#${createHash('sha256').update(token).digest('hex')}`, SK: 'INVITETOKEN' };
      const epoch = Math.floor(Date.parse(sent.expires_at) / 1000);
      expect((await raw(inviteKey))?.[TABLE.ttlAttribute]).toBe(epoch);
      expect((await raw(tokenKey))?.[TABLE.ttlAttribute]).toBe(epoch);

      const res = await call(runtime.apiUrl, 'POST', '/api/v1/organization/invites/accept', { token: await idTokenOf({ email: address }), body: { token } });
      expect(res.status).toBe(200);
      const accepted = await raw(inviteKey);
      expect(accepted?.status).toBe('accepted');
      expect(accepted?.[TABLE.ttlAttribute]).toBeUndefined();
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Send with %s: 201, one invite, one email', async (caller, tokenOf) => {
      const { org } = await callers();
      const address = org.address(`send.${nameOf(caller)}`);
      const res = await invite(org, { email: address }, await tokenOf(org));
      expect(res.status).toBe(201);
      expect((await listed(org)).filter((i) => i.email === address)).toHaveLength(1);
      expect(await emailsTo(address)).toHaveLength(1);
    });
  });
});

describe('POST /api/v1/organization/invites/accept', () => {
  describe('results', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('accept');
    });

    it('an existing user accepts: {org_id, role, status: active}, and List users shows them with the invite’s role', async () => {
      const guest = await seededUser('guest');
      const { invite: sent, token } = await invitedWithToken(org, { email: guest.email, role: 'admin' }, await idTokenFor(org.people.owner));
      const before = await members(org);
      expect(before.find(guest.email)).toEqual([]);

      const guestToken = await idTokenFor(guest);
      const res = await accept(token, guestToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ org_id: org.org, role: 'admin', status: 'active' });

      const after = await members(org);
      expect(after.total).toBe(before.total + 1);
      expect(after.find(guest.email)).toEqual([
        expect.objectContaining({ user_id: guest.id, email: guest.email, display_name: guest.display_name, role: 'admin', status: 'active' }),
      ]);
      expect((await listed(org, 'accepted')).map((i) => i.id)).toContain(sent.id);
      // They now act in the organization as an admin would.
      expect((await list(org, '', guestToken)).status).toBe(200);
      // ...and are a member, so a new invitation is refused.
      expectFailure(await invite(org, { email: guest.email }), 409, 'ALREADY_MEMBER');
    });

    it('a user who does not exist yet is created from the token’s claims (the email matched case-insensitively)', async () => {
      const address = org.address('brand.new');
      const { token } = await invitedWithToken(org, { email: address, role: 'viewer' });
      const before = await members(org);

      const newcomer = await idTokenOf({ email: address.toUpperCase(), name: 'Nora Newcomer' });
      const res = await accept(token, newcomer);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ org_id: org.org, role: 'viewer', status: 'active' });

      const after = await members(org);
      expect(after.total).toBe(before.total + 1);
      expect(after.find(address)).toEqual([
        expect.objectContaining({ user_id: expect.stringMatching(/^usr_/), email: address, display_name: 'Nora Newcomer', role: 'viewer', status: 'active' }),
      ]);
      // The same ID token now maps to that member: a viewer reads the organization's recordings.
      expect((await send('GET', `/api/v1/organization/${org.org}/recordings`, newcomer)).status).toBe(200);
    });

    it('without a name claim, the new user’s display name is the email’s local part', async () => {
      const address = org.address('nameless');
      const { token } = await invitedWithToken(org, { email: address });
      expect((await accept(token, await idTokenOf({ email: address }))).status).toBe(200);
      expect((await members(org)).find(address)).toEqual([expect.objectContaining({ display_name: address.split('@')[0], role: 'member' })]);
    });

    it('another email is 403 INVITE_EMAIL_MISMATCH; the invite stays pending for the right person', async () => {
      const address = org.address('mismatch');
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      const before = await members(org);

      expectFailure(await accept(token, await idTokenFor(org.people.member)), 403, 'INVITE_EMAIL_MISMATCH');
      expectFailure(await accept(token, await idTokenOf({ email: org.address('someone.else') })), 403, 'INVITE_EMAIL_MISMATCH');
      expect(await statusOf(org, sent.id)).toBe('pending');
      expect((await members(org)).total).toBe(before.total);

      expect((await accept(token, await idTokenOf({ email: address }))).status).toBe(200);
    });

    it('an unverified email is 403 INVITE_EMAIL_MISMATCH, even when it is the invited one', async () => {
      const address = org.address('unverified');
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      expectFailure(await accept(token, await idTokenOf({ email: address, emailVerified: false })), 403, 'INVITE_EMAIL_MISMATCH');
      expect(await statusOf(org, sent.id)).toBe('pending');
      expect((await members(org)).find(address)).toEqual([]);
    });

    it('an unknown token is 404 INVITE_NOT_FOUND', async () => {
      expectFailure(await accept(randomBytes(32).toString('base64url'), await idTokenFor(org.people.member)), 404, 'INVITE_NOT_FOUND');
    });

    it('accepting twice is 409 INVITE_ALREADY_ACCEPTED, and the member is counted once', async () => {
      const guest = await seededUser('twice');
      const { token } = await invitedWithToken(org, { email: guest.email });
      const guestToken = await idTokenFor(guest);
      expect((await accept(token, guestToken)).status).toBe(200);
      const once = await members(org);

      expectFailure(await accept(token, guestToken), 409, 'INVITE_ALREADY_ACCEPTED');
      const after = await members(org);
      expect(after.total).toBe(once.total);
      expect(after.find(guest.email)).toHaveLength(1);
    });

    it('API keys are 403 API_KEY_NOT_ALLOWED and no credential is 401; the invite stays pending', async () => {
      const address = org.address('bykey');
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      expectFailure(await accept(token, org.keys.full), 403, 'API_KEY_NOT_ALLOWED');
      expectFailure(await accept(token, org.keys.personal), 403, 'API_KEY_NOT_ALLOWED');
      expectFailure(await accept(token, ''), 401, 'UNAUTHORIZED');
      expect(await statusOf(org, sent.id)).toBe('pending');
    });

    it('the body must be {token} (400 VALIDATION_ERROR naming the field)', async () => {
      const idToken = await idTokenFor(org.people.member);
      const path = '/api/v1/organization/invites/accept';
      for (const [body, field] of [
        [{}, 'token'],
        [{ token: '' }, 'token'],
        [{ token: 42 }, 'token'],
        [{ token: 'abc', org_id: org.org }, 'org_id'],
      ] as const) {
        const res = await send('POST', path, idToken, body);
        expectFailure(res, 400, 'VALIDATION_ERROR');
        expect(res.body.message).toContain(field);
      }
    });
  });

  describe('concurrent accepts', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('race');
    });

    async function race(address: string, idToken: string) {
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      const before = await members(org);
      const results = await Promise.all(Array.from({ length: 10 }, () => accept(token, idToken)));
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status !== 200);
      expect(ok.map((r) => r.body)).toEqual([{ org_id: org.org, role: 'member', status: 'active' }]);
      expect(refused).toHaveLength(9);
      for (const r of refused) expectFailure(r, 409, 'INVITE_ALREADY_ACCEPTED');

      const after = await members(org);
      expect(after.total).toBe(before.total + 1);
      expect(after.find(address)).toHaveLength(1);
      expect(await statusOf(org, sent.id)).toBe('accepted');
    }

    it('10 parallel accepts by the invited (existing) user: exactly one 200, nine 409, one more member', async () => {
      const guest = await seededUser('racer');
      await race(guest.email, await idTokenFor(guest));
    });

    it('10 parallel accepts by a user who does not exist yet: exactly one 200, one user, one more member', async () => {
      const address = org.address('new.racer');
      await race(address, await idTokenOf({ email: address, name: 'New Racer' }));
    });
  });

  describe('expired invitations', () => {
    let org: Org;
    let first: Invite;
    let firstToken: string;
    beforeAll(async () => {
      ({ org, first, firstToken } = await expiredInvites());
    });

    it('an expired invite’s link is 410 INVITE_EXPIRED, and nobody joins', async () => {
      const before = await members(org);
      const res = await accept(firstToken, await idTokenOf({ email: first.email }));
      expectFailure(res, 410, 'INVITE_EXPIRED');
      expect((await members(org)).total).toBe(before.total);
    });
  });
});

describe('GET /api/v1/organization/{orgId}/invites', () => {
  describe('results', () => {
    let org: Org;
    let made: Invite[];
    beforeAll(async () => {
      org = await seededOrg('list');
      made = [];
      for (const name of ['a', 'b', 'c', 'd', 'e']) {
        // Sent a minute apart, a, b... e oldest to newest: every created_at distinct.
        const sentAt = new Date(Date.now() - (5 - made.length) * MINUTE_MS);
        made.push(await invitedAt(sentAt, org, { email: org.address(`list.${name}`), role: name === 'e' ? 'viewer' : 'member' }));
      }
      // Their emails sent (by the deployment's consumer), as List shows them.
      made = await Promise.all(made.map((sent) => delivered(org, sent.id)));
      // b is accepted, d revoked; a, c, e stay pending.
      expect((await accept(await latestToken(made[1].email), await idTokenOf({ email: made[1].email }))).status).toBe(200);
      expect((await revoke(org, made[3].id)).status).toBe(200);
    });
    const ids = (res: ApiResponse) => (res.body.invites as Invite[]).map((i) => i.id);
    const newestFirst = () => [...made].reverse();

    it('lists every invite, newest first, with the page-based pagination object (limit 20 by default)', async () => {
      const res = await list(org);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['invites', 'pagination']);
      expect(ids(res)).toEqual(newestFirst().map((i) => i.id));
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 5, total_pages: 1, has_more: false });
      const statuses = ['pending', 'accepted', 'pending', 'revoked', 'pending'];
      expect(res.body.invites).toEqual(newestFirst().map((i) => ({ ...i, status: statuses[made.indexOf(i)], ...SENT_ONCE })));
    });

    it.each<[string, number[]]>([
      ['pending', [4, 2, 0]],
      ['accepted', [1]],
      ['revoked', [3]],
      ['expired', []],
    ])('status=%s lists only that status', async (status, indexes) => {
      const res = await list(org, `status=${status}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(indexes.map((i) => made[i].id));
      for (const item of res.body.invites) expect(item.status).toBe(status);
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: indexes.length, total_pages: indexes.length ? 1 : 0, has_more: false });
    });

    it('pages with page and limit; a page past the end is empty with the real totals', async () => {
      const order = newestFirst().map((i) => i.id);
      const pages = [
        ['page=1&limit=2', order.slice(0, 2), { page: 1, limit: 2, total: 5, total_pages: 3, has_more: true }],
        ['page=2&limit=2', order.slice(2, 4), { page: 2, limit: 2, total: 5, total_pages: 3, has_more: true }],
        ['page=3&limit=2', order.slice(4), { page: 3, limit: 2, total: 5, total_pages: 3, has_more: false }],
        ['page=4&limit=2', [], { page: 4, limit: 2, total: 5, total_pages: 3, has_more: false }],
        ['status=pending&page=2&limit=2', [made[0].id], { page: 2, limit: 2, total: 3, total_pages: 2, has_more: false }],
      ] as const;
      for (const [query, expected, pagination] of pages) {
        const res = await list(org, query);
        expect(ids(res)).toEqual(expected);
        expect(res.body.pagination).toEqual(pagination);
      }
    });

    it.each<[string, string]>([
      ['status=bogus', 'status'],
      ['status=PENDING', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['sort=email', 'sort'],
    ])('%s is 400 VALIDATION_ERROR naming the parameter', async (query, parameter) => {
      const res = await list(org, query);
      expectFailure(res, 400, 'VALIDATION_ERROR');
      expect(res.body.details).toContainEqual(expect.objectContaining({ field: parameter }));
    });

    it('lists only its own organization’s invites', async () => {
      const other = await seededOrg('list_other');
      await invited(other, { email: other.address('theirs') });
      expect((await listed(other)).map((i) => i.email)).toEqual([other.address('theirs')]);
      expect((await listed(org)).map((i) => i.email)).not.toContain(other.address('theirs'));
    });
  });

  describe('expired invitations', () => {
    let org: Org;
    let first: Invite;
    beforeAll(async () => {
      ({ org, first } = await expiredInvites());
    });

    it('List reports it as expired: status=expired lists it, status=pending does not', async () => {
      const expired = await listed(org, 'expired');
      expect(expired.find((i) => i.id === first.id)).toEqual({ ...first, status: 'expired' });
      expect((await listed(org, 'pending')).map((i) => i.id)).not.toContain(first.id);
    });
  });

  describe('callers it admits', () => {
    it.each(READERS)('List with %s: the organization’s invites', async (_caller, tokenOf) => {
      const { org, revocable } = await callers();
      const res = await list(org, 'limit=100', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body.invites.map((i: Invite) => i.id)).toContain(Object.values(revocable)[0].id);
    });
  });
});

describe('DELETE /api/v1/organization/{orgId}/invites/{inviteId}', () => {
  describe('results', () => {
    let org: Org;
    let other: Org;
    beforeAll(async () => {
      ({ org, other } = await revocations());
    });

    it('answers {success: true}; the link is then 410 INVITE_REVOKED, and revoke or resend again 409 INVITE_NOT_PENDING', async () => {
      const address = org.address('revoked');
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      const before = await members(org);

      const res = await revoke(org, sent.id, await idTokenFor(org.people.admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect((await listed(org, 'revoked')).find((i) => i.id === sent.id)).toEqual({ ...sent, status: 'revoked' });
      expect((await listed(org, 'pending')).map((i) => i.id)).not.toContain(sent.id);

      expectFailure(await accept(token, await idTokenOf({ email: address })), 410, 'INVITE_REVOKED');
      expect((await members(org)).total).toBe(before.total);
      expectFailure(await revoke(org, sent.id), 409, 'INVITE_NOT_PENDING');
      expectFailure(await resend(org, sent.id), 409, 'INVITE_NOT_PENDING');
      // A refused resend commits nothing: no new send (and so no email), the delivery as it was.
      expect((await listed(org)).find((i) => i.id === sent.id)).toEqual({ ...sent, status: 'revoked' });
      expect(await sentEmails(address)).toHaveLength(1);
    });

    it('frees the email: a new invitation to it is allowed, and its link works', async () => {
      const address = org.address('again');
      const { invite: first } = await invitedWithToken(org, { email: address });
      expect((await revoke(org, first.id)).status).toBe(200);
      const second = await invited(org, { email: address, role: 'viewer' });
      expect(second.id).not.toBe(first.id);
      expect((await accept(await latestToken(address, 2), await idTokenOf({ email: address }))).body).toEqual({ org_id: org.org, role: 'viewer', status: 'active' });
    });

    it('an accepted invite cannot be revoked or resent (409 INVITE_NOT_PENDING); the member stays', async () => {
      const address = org.address('accepted');
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      expect((await accept(token, await idTokenOf({ email: address }))).status).toBe(200);
      expectFailure(await revoke(org, sent.id), 409, 'INVITE_NOT_PENDING');
      expectFailure(await resend(org, sent.id), 409, 'INVITE_NOT_PENDING');
      expect(await statusOf(org, sent.id)).toBe('accepted');
      expect((await members(org)).find(address)).toHaveLength(1);
    });

    it('unknown and other-organization invite ids are 404 INVITE_NOT_FOUND; nothing changes', async () => {
      const address = org.address('not.theirs.revoked');
      const { invite: sent } = await invitedWithToken(org, { email: address });
      for (const token of [other.keys.full, await idTokenFor(other.people.admin)]) {
        expectFailure(await revoke(other, sent.id, token), 404, 'INVITE_NOT_FOUND');
      }
      const missing = `inv_missing_${unique()}`;
      expectFailure(await revoke(org, missing), 404, 'INVITE_NOT_FOUND');
      expect(await statusOf(org, sent.id)).toBe('pending');
      expect(await sentEmails(address)).toHaveLength(1);
      expect(await listed(other)).toEqual([]);
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Revoke with %s: revoked', async (caller, tokenOf) => {
      const { org, revocable } = await callers();
      const target = revocable[caller];
      const res = await revoke(org, target.id, await tokenOf(org));
      expect(res.status).toBe(200);
      expect(await statusOf(org, target.id)).toBe('revoked');
    });
  });
});

describe('POST /api/v1/organization/{orgId}/invites/{inviteId}/resend', () => {
  describe('results', () => {
    it('answers {success: true} and sends a second email with a new token; the old one is 404, the new one works; expires_at is reset', async () => {
      const org = await seededOrg('resend');
      const address = org.address('resent');
      const adminToken = await idTokenFor(org.people.admin);
      // Sent by the admin an hour ago, so the renewed expiry is later whatever the clock's resolution; emailed by the deployment.
      const sent = await delivered(org, (await invitedAt(new Date(Date.now() - HOUR_MS), org, { email: address, role: 'admin' }, { by: 'admin' })).id);
      const oldToken = await latestToken(address);

      const before = Date.now();
      const res = await resend(org, sent.id, adminToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      // At once: a new send, its email queued, the old link dead.
      expect((await listed(org)).find((i) => i.id === sent.id)).toMatchObject({ status: 'pending', ...QUEUED });
      expectFailure(await accept(oldToken, await idTokenOf({ email: address })), 404, 'INVITE_NOT_FOUND');

      const emails = await emailsTo(address, 2);
      expect(emails).toHaveLength(2);
      expect(emails[1].subject).toBe(`adam admin invited you to join ${org.orgName} on Voice Org`);
      expect(emails[1].subject).toBe(emails[0].subject);
      const newToken = tokenIn(emails[1]);
      expect(newToken).not.toBe(oldToken);

      const renewed = await delivered(org, sent.id);
      expect(renewed).toEqual({ ...sent, expires_at: expect.stringMatching(TIMESTAMP), ...SENT_ONCE }); // same invite, id and created_at
      expect(Date.parse(renewed.expires_at)).toBeGreaterThan(Date.parse(sent.expires_at));
      expect(Math.abs(Date.parse(renewed.expires_at) - (before + 7 * DAY_MS))).toBeLessThan(60_000);

      const user = await idTokenOf({ email: address });
      expectFailure(await accept(oldToken, user), 404, 'INVITE_NOT_FOUND');
      expect((await accept(newToken, user)).body).toEqual({ org_id: org.org, role: 'admin', status: 'active' });
    });

    describe('unknown ids, and other organizations’ invites', () => {
      let org: Org;
      let other: Org;
      beforeAll(async () => {
        ({ org, other } = await revocations());
      });

      it('unknown and other-organization invite ids are 404 INVITE_NOT_FOUND; nothing changes', async () => {
        const address = org.address('not.theirs.resent');
        const { invite: sent } = await invitedWithToken(org, { email: address });
        for (const token of [other.keys.full, await idTokenFor(other.people.admin)]) {
          expectFailure(await resend(other, sent.id, token), 404, 'INVITE_NOT_FOUND');
        }
        const missing = `inv_missing_${unique()}`;
        expectFailure(await resend(org, missing), 404, 'INVITE_NOT_FOUND');
        expect(await statusOf(org, sent.id)).toBe('pending');
        expect(await sentEmails(address)).toHaveLength(1);
        expect(await listed(other)).toEqual([]);
      });
    });
  });

  describe('expired invitations', () => {
    let org: Org;
    let renewable: Invite;
    let renewableToken: string;
    beforeAll(async () => {
      ({ org, renewable, renewableToken } = await expiredInvites());
    });

    it('resending an expired invite renews it: a new link that works, the old one 404', async () => {
      expect(await statusOf(org, renewable.id)).toBe('expired');
      expect((await resend(org, renewable.id, org.keys.full)).body).toEqual({ success: true });
      expect(await statusOf(org, renewable.id)).toBe('pending');
      const token = await latestToken(renewable.email, 2);
      expect(token).not.toBe(renewableToken);
      const user = await idTokenOf({ email: renewable.email });
      expectFailure(await accept(renewableToken, user), 404, 'INVITE_NOT_FOUND');
      expect((await accept(token, user)).status).toBe(200);
    });
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Resend with %s: a second email', async (caller, tokenOf) => {
      const { org, resendable } = await callers();
      const target = resendable[caller];
      const res = await resend(org, target.id, await tokenOf(org));
      expect(res.status).toBe(200);
      expect(await emailsTo(target.email, 2)).toHaveLength(2);
    });
  });
});

describe('the invitation email (the invitation mail consumer)', () => {
  const MAX_ATTEMPTS = EVENT_CONSUMERS.invitationMail.maxAttempts;

  it('fault injection, a failing mailer: retried with each attempt and its code recorded, failed after the last (invite.email_failed); a resend is then emailed and its link works', async () => {
    const org = await seededOrg('mailfail');
    const address = org.address('unlucky');
    // Sent a minute ago with a 2 s TTL: the deployment's own consumer finds it expired and sends
    // nothing, leaving it to a consumer in this process whose clock is at the send and whose mailer fails.
    const sentAt = new Date(Date.now() - MINUTE_MS);
    const sent = await invitedAt(sentAt, org, { email: address }, { ttlSeconds: 2 });
    const event = await sendEventOf(org, sent.id);
    const down = jest.fn(async () => {
      throw new MailError('MAIL_UNAVAILABLE');
    });
    const handler = eventConsumer('invitationMail', async (e, delivery) => {
      await sendInvitationEmail({ db, mail: down, now: () => sentAt, settings: { appUrl } }, e, delivery);
    });
    const shown = async () => (await listed(org)).find((i) => i.id === sent.id);

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const batch = queuedEvents([event], attempt);
      expect(await handler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: batch.Records[0]?.messageId }] });
      expect(await shown()).toMatchObject({ email_status: 'queued', email_sent_at: null, email_attempts: attempt, email_last_error: 'MAIL_UNAVAILABLE' });
    }
    expect(await handler(queuedEvents([event], MAX_ATTEMPTS))).toEqual({ batchItemFailures: [] });
    expect(down).toHaveBeenCalledTimes(MAX_ATTEMPTS);
    expect(await shown()).toEqual({ ...sent, status: 'expired', email_status: 'failed', email_sent_at: null, email_attempts: MAX_ATTEMPTS, email_last_error: 'MAIL_UNAVAILABLE' });
    const failed = (await eventsInclude(org.org, ['invite.email_failed'], sent.id)).find((e) => e.type === 'invite.email_failed');
    expect(failed).toMatchObject({ actor: null, resource: { type: 'invite', id: sent.id }, data: { email: address, attempts: MAX_ATTEMPTS, error: 'MAIL_UNAVAILABLE' } });
    expect(await sentEmails(address)).toEqual([]);

    // Resend works on it (through the API); the deployment's consumer emails the new send.
    expect((await resend(org, sent.id)).body).toEqual({ success: true });
    expect(await delivered(org, sent.id)).toMatchObject({ status: 'pending', ...SENT_ONCE });
    expect((await accept(await latestToken(address), await idTokenOf({ email: address }))).body).toEqual({ org_id: org.org, role: 'member', status: 'active' });
    await eventsInclude(org.org, ['invite.resent', 'invite.email_sent', 'invite.accepted'], sent.id);
  });

  it('a redelivered event sends no second email (the consumer’s function module, loaded here on the deployment’s table and SES)', async () => {
    const org = await seededOrg('maildup');
    const address = org.address('once');
    const { invite: sent } = await invitedWithToken(org, { email: address });
    const event = await sendEventOf(org, sent.id);
    const saved = { ...process.env };
    Object.assign(process.env, { TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint, AWS_REGION: runtime.region, SES_ENDPOINT: runtime.sesEndpoint, APP_URL: appUrl, POWERTOOLS_LOG_LEVEL: 'ERROR' });
    try {
      const { handler } = await import('../../functions/events/send-invitation-email');
      expect(await handler(queuedEvents([event, event], 2))).toEqual({ batchItemFailures: [] });
    } finally {
      process.env = saved;
    }
    expect(await sentEmails(address)).toHaveLength(1);
    expect((await listed(org)).find((i) => i.id === sent.id)).toEqual(sent);
  });
});
