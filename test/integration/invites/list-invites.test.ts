import { expectFailure, type ApiResponse } from '../../support/api';
import { latestToken } from '../../support/invite-mail';
import {
  accept,
  callers,
  delivered,
  expiredInvites,
  idTokenOf,
  type Invite,
  invited,
  invitedAt,
  list,
  listed,
  MINUTE_MS,
  type Org,
  READERS,
  revoke,
  seededOrg,
  SENT_ONCE,
} from '../../support/invites';

/**
 * List invites end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): the invites with their email delivery state, filters, pages, and
 * expired invitations. Tests read the accept link from the email the local SES emulator
 * received, as a user would (waiting for it: the invitation mail consumer sends it after the
 * request answered). The organizations and helpers of the invitations suites:
 * test/support/invites.ts.
 */

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
      expect(res.body.pagination).toEqual({
        page: 1,
        limit: 20,
        total: indexes.length,
        total_pages: indexes.length ? 1 : 0,
        has_more: false,
      });
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
