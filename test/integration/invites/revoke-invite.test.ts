import { expectFailure, idTokenFor, sentEmails, unique } from '../../support/api';
import { latestToken } from '../../support/invite-mail';
import {
  accept,
  callers,
  idTokenOf,
  invited,
  invitedWithToken,
  listed,
  members,
  type Org,
  resend,
  revocations,
  revoke,
  statusOf,
  WRITERS,
} from '../../support/invites';

/**
 * Revoke invite end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): what a revocation leaves and refuses. Tests read the accept link from the
 * email the local SES emulator received, as a user would (waiting for it: the invitation mail
 * consumer sends it after the request answered). The organizations and helpers of the
 * invitations suites: test/support/invites.ts.
 */

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
      expect((await accept(await latestToken(address, 2), await idTokenOf({ email: address }))).body).toEqual({
        org_id: org.org,
        role: 'viewer',
        status: 'active',
      });
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
