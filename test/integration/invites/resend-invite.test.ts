import { expectFailure, idTokenFor, sentEmails, TIMESTAMP, unique } from '../../support/api';
import { emailsTo, latestToken, tokenIn } from '../../support/invite-mail';
import {
  accept,
  callers,
  DAY_MS,
  delivered,
  expiredInvites,
  HOUR_MS,
  idTokenOf,
  type Invite,
  invitedAt,
  invitedWithToken,
  listed,
  type Org,
  QUEUED,
  resend,
  revocations,
  seededOrg,
  SENT_ONCE,
  statusOf,
  WRITERS,
} from '../../support/invites';

/**
 * Resend invite end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local, and the second email): what a resend renews, and expired invitations. Tests
 * read the accept link from the email the local SES emulator received, as a user would (waiting
 * for it: the invitation mail consumer sends it after the request answered). The organizations
 * and helpers of the invitations suites: test/support/invites.ts.
 */

describe('POST /api/v1/organization/{orgId}/invites/{inviteId}/resend', () => {
  describe('results', () => {
    it('answers {success: true} and sends a second email with a new token; the old one is 404, the new one works; expires_at is reset', async () => {
      const org = await seededOrg('resend');
      const address = org.address('resent');
      const adminToken = await idTokenFor(org.people.admin);
      // Sent by the admin an hour ago, so the renewed expiry is later whatever the clock's resolution; emailed by the deployment.
      const sent = await delivered(
        org,
        (await invitedAt(new Date(Date.now() - HOUR_MS), org, { email: address, role: 'admin' }, { by: 'admin' })).id,
      );
      const oldToken = await latestToken(address);

      const before = Date.now();
      const res = await resend(org, sent.id, adminToken);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      // At once: a new send, its email queued (or, when the mail consumer was quicker than this read,
      // sent once since the resend: the delivery state starts over either way), the old link dead.
      const resent = (await listed(org)).find((i) => i.id === sent.id);
      expect(resent).toMatchObject({ status: 'pending' });
      if (resent?.email_status !== 'queued') expect(Date.parse(resent?.email_sent_at ?? '')).toBeGreaterThanOrEqual(before);
      expect(resent).toMatchObject(
        resent?.email_status === 'queued' ? QUEUED : { email_status: 'sent', email_attempts: 1, email_last_error: null },
      );
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
