import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { call, expectFailure, idTokenFor, sentEmails, TIMESTAMP } from '../../support/api';
import { eventsInclude } from '../../support/events';
import { emailsTo, latestToken, tokenIn } from '../../support/invite-mail';
import { runCli } from '../../support/cli';
import {
  accept,
  appUrl,
  callers,
  dataDir,
  DAY_MS,
  db,
  delivered,
  expiredInvites,
  idTokenOf,
  invite,
  type Invite,
  invited,
  invitedWithToken,
  listed,
  members,
  nameOf,
  type Org,
  QUEUED,
  runtime,
  seededOrg,
  SENT_ONCE,
  statusOf,
  WRITERS,
} from '../../support/invites';

/**
 * Send invite end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local, and the email the invitation mail consumer sends): the Invite it answers,
 * duplicates, roles and validation, after an invitation expired, and the TTL attribute, each
 * rule (of the spec and docs/decisions.md, "Invitations") with a test that fails when it breaks.
 * Tests read the accept link from the email the local SES emulator received, as a user would
 * (waiting for it: the invitation mail consumer sends it after the request answered). The
 * organizations and helpers of the invitations suites: test/support/invites.ts.
 */

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
      expect(events.find((e) => e.type === 'invite.email_sent' && e.resource.id === res.body.id)).toMatchObject({
        actor: null,
        data: { email: address, attempts: 1 },
      });
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

    it.each(['owner', 'admin', 'member', 'viewer'] as const)(
      'the email of an active %s is 409 ALREADY_MEMBER, no invite, no email',
      async (name) => {
        const { email } = org.people[name];
        const res = await invite(org, { email: email.toUpperCase(), role: 'viewer' });
        expectFailure(res, 409, 'ALREADY_MEMBER');
        expect((await listed(org)).filter((i) => i.email === email)).toEqual([]);
        expect(await sentEmails(email)).toEqual([]);
      },
    );

    it.each(['removed', 'pending'] as const)(
      'a %s member’s email can be invited; accepting makes them active with the invite’s role',
      async (name) => {
        const person = org.people[name];
        const { token } = await invitedWithToken(org, { email: person.email, role: 'admin' });
        const before = await members(org);
        expect(before.find(person.email)).toEqual([]);

        expect((await accept(token, await idTokenFor(person))).body).toEqual({ org_id: org.org, role: 'admin', status: 'active' });
        const after = await members(org);
        expect(after.total).toBe(before.total + 1);
        expect(after.find(person.email)).toEqual([expect.objectContaining({ user_id: person.id, role: 'admin', status: 'active' })]);
      },
    );
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
      expect((await accept(await latestToken(byOwner), await idTokenOf({ email: byOwner }))).body).toEqual({
        org_id: org.org,
        role: 'owner',
        status: 'active',
      });
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
      expect((await accept(token, await idTokenOf({ email: first.email }))).body).toEqual({
        org_id: org.org,
        role: 'member',
        status: 'active',
      });
    });
  });

  describe('the TTL attribute (expiry by DynamoDB)', () => {
    it('pending invites and their token carry the TTL attribute at expires_at; accepted invites drop it', async () => {
      const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
      const { TABLE } = await import('../../../shared/storage/table-definition');
      const org = await seededOrg('ttl');
      const address = `ttl.${org.id}@example.com`;
      const { invite: sent, token } = await invitedWithToken(org, { email: address });
      const raw = async (key: Record<string, string>) => (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;
      const inviteKey = { PK: `ORG#${org.org}`, SK: `INVITE#${sent.id}` };
      const tokenKey = { PK: `INVITETOKEN#${createHash('sha256').update(token).digest('hex')}`, SK: 'INVITETOKEN' };
      const epoch = Math.floor(Date.parse(sent.expires_at) / 1000);
      expect((await raw(inviteKey))?.[TABLE.ttlAttribute]).toBe(epoch);
      expect((await raw(tokenKey))?.[TABLE.ttlAttribute]).toBe(epoch);

      const res = await call(runtime.apiUrl, 'POST', '/api/v1/organization/invites/accept', {
        token: await idTokenOf({ email: address }),
        body: { token },
      });
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
