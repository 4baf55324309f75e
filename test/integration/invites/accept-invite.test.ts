import { randomBytes } from 'node:crypto';
import { expectFailure, idTokenFor } from '../../support/api';
import {
  accept,
  expiredInvites,
  idTokenOf,
  invite,
  type Invite,
  invitedWithToken,
  list,
  listed,
  members,
  type Org,
  seededOrg,
  seededUser,
  send,
  statusOf,
} from '../../support/invites';

/**
 * Accept invite end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): who joins with which role, concurrent accepts, and expired invitations, each
 * rule (of the spec and docs/decisions.md, "Invitations") with a test that fails when it breaks.
 * Tests read the accept link from the email the local SES emulator received, as a user would
 * (waiting for it: the invitation mail consumer sends it after the request answered). The
 * organizations and helpers of the invitations suites: test/support/invites.ts.
 */

describe('POST /api/v1/organization/invites/accept', () => {
  describe('results', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('accept');
    });

    it('an existing user accepts: {org_id, role, status: active}, and List users shows them with the invite’s role', async () => {
      const guest = await seededUser('guest');
      const { invite: sent, token } = await invitedWithToken(
        org,
        { email: guest.email, role: 'admin' },
        await idTokenFor(org.people.owner),
      );
      const before = await members(org);
      expect(before.find(guest.email)).toEqual([]);

      const guestToken = await idTokenFor(guest);
      const res = await accept(token, guestToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ org_id: org.org, role: 'admin', status: 'active' });

      const after = await members(org);
      expect(after.total).toBe(before.total + 1);
      expect(after.find(guest.email)).toEqual([
        expect.objectContaining({
          user_id: guest.id,
          email: guest.email,
          display_name: guest.display_name,
          role: 'admin',
          status: 'active',
        }),
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
        expect.objectContaining({
          user_id: expect.stringMatching(/^usr_/),
          email: address,
          display_name: 'Nora Newcomer',
          role: 'viewer',
          status: 'active',
        }),
      ]);
      // The same ID token now maps to that member: a viewer reads the organization's recordings.
      expect((await send('GET', `/api/v1/organization/${org.org}/recordings`, newcomer)).status).toBe(200);
    });

    it('without a name claim, the new user’s display name is the email’s local part', async () => {
      const address = org.address('nameless');
      const { token } = await invitedWithToken(org, { email: address });
      expect((await accept(token, await idTokenOf({ email: address }))).status).toBe(200);
      expect((await members(org)).find(address)).toEqual([
        expect.objectContaining({ display_name: address.split('@')[0], role: 'member' }),
      ]);
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
