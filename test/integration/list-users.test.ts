import type { MemberStatus, Role } from '../../shared/core/access';
import { addMember, ensureMembership } from '../../shared/operator-tasks/directory';
import { call, failure, idp, idTokenFor, localDeployment, TIMESTAMP, unique } from '../support/api';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * List users end to end: HTTP -> local API Gateway emulator -> authorizer -> handler
 * -> DynamoDB Local, on the organization route and its public alias.
 */
const { runtime, db } = localDeployment();
const get = (path: string, token?: string, headers?: Record<string, string>) => call(runtime.apiUrl, 'GET', path, { token, headers });

const MEMBER_SINCE = '2025-01-02T03:04:05.678Z';

/**
 * An organization of four active members whose emails sort admin, member, viewer, owner (one
 * in mixed case), a pending and a removed member and admin, `memberCount` more active
 * members, and keys of each users scope set.
 */
function buildUsersOrg(memberCount = 0) {
  const person = (role: Role, email: string, displayName: string, status: MemberStatus = 'active') => ({
    role,
    status,
    email,
    displayName,
    memberSince: MEMBER_SINCE,
  });
  return buildOrg({
    people: {
      owner: person('owner', 'zed.owner@example.com', 'Zed Owner'),
      admin: person('admin', 'Amy.Admin@example.com', 'Amy Admin'),
      member: person('member', 'mo.member@example.com', 'Mo Member'),
      viewer: person('viewer', 'val.viewer@example.com', 'Valerie Smith'),
      pending: person('member', 'pat.pending@example.com', 'Pat Pending', 'pending'),
      removed: person('member', 'ray.removed@example.com', 'Ray Removed', 'removed'),
      pendingAdmin: person('admin', 'pa.admin@example.com', 'Pending Admin', 'pending'),
      removedAdmin: person('admin', 'ra.admin@example.com', 'Removed Admin', 'removed'),
    },
    extraMembers: memberCount,
    keys: {
      full: { scopes: ['users:read', 'users:write'] },
    },
  });
}

type Org = ReturnType<typeof buildUsersOrg>;
const seeded = (memberCount = 0): Promise<Org> => seedOrg(buildUsersOrg(memberCount));

let acme: Org;
let other: Org;
beforeAll(async () => {
  [acme, other] = await Promise.all([seeded(), seeded()]);
});

describe('GET /api/v1/organization/{orgId}/users', () => {
  describe('results', () => {
    it('lists active members only, sorted by email ascending, with every Member field', async () => {
      const res = await get(`/api/v1/organization/${acme.org}/users`, acme.keys.full);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const emails = res.body.data.map((m: { email: string }) => m.email);
      const { admin, member, owner, viewer } = acme.people;
      expect(emails).toEqual([admin, member, viewer, owner].map((p) => p.email.toLowerCase()));
      expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 4, total_pages: 1, has_more: false });
      const first = res.body.data[0];
      expect(first).toEqual({
        user_id: admin.id,
        email: admin.email.toLowerCase(),
        display_name: 'Amy Admin',
        role: 'admin',
        status: 'active',
        is_active: true,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        member_since: MEMBER_SINCE,
        recording_count: 0,
        latest_recording_at: null,
      });
      for (const m of res.body.data) expect(m).toMatchObject({ status: 'active', is_active: true });
    });

    it('q matches a case-insensitive substring of the email or the display name', async () => {
      const byName = await get(`/api/v1/organization/${acme.org}/users?q=SMITH`, acme.keys.full);
      expect(byName.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([acme.people.viewer.id]);
      expect(byName.body.pagination).toEqual({ page: 1, limit: 25, total: 1, total_pages: 1, has_more: false });

      const byEmail = await get(`/api/v1/organization/${acme.org}/users?q=amy.ADMIN`, acme.keys.full);
      expect(byEmail.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([acme.people.admin.id]);

      // Pending and removed members never match, even when their names do.
      const inactive = await get(`/api/v1/organization/${acme.org}/users?q=pending`, acme.keys.full);
      expect(inactive.body.data).toEqual([]);
      expect(inactive.body.pagination).toEqual({ page: 1, limit: 25, total: 0, total_pages: 0, has_more: false });

      // Paged and counted over the matches, still in email order.
      const paged = await get(`/api/v1/organization/${acme.org}/users?q=example.com&limit=3&page=2`, acme.keys.full);
      expect(paged.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([acme.people.owner.id]);
      expect(paged.body.pagination).toEqual({ page: 2, limit: 3, total: 4, total_pages: 2, has_more: false });
    });

    it('treats q literally, not as a pattern', async () => {
      const res = await get(`/api/v1/organization/${acme.org}/users?q=${encodeURIComponent('.*')}`, acme.keys.full);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });
  });

  describe('paging', () => {
    let big: Org;
    beforeAll(async () => {
      big = await seeded(26); // 26 bulk members + 4 active people = 30 active
    });
    const page = (query: string) => get(`/api/v1/organization/${big.org}/users${query}`, big.keys.full);

    it('defaults to page 1 of 25', async () => {
      const res = await page('');
      expect(res.body.data).toHaveLength(25);
      expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 30, total_pages: 2, has_more: true });
    });

    it('the last page holds the remainder and says there is no more', async () => {
      const first = await page('?page=1');
      const last = await page('?page=2');
      expect(last.body.data).toHaveLength(5);
      expect(last.body.pagination).toEqual({ page: 2, limit: 25, total: 30, total_pages: 2, has_more: false });
      const all = [...first.body.data, ...last.body.data].map((m: { email: string }) => m.email);
      expect(new Set(all).size).toBe(30);
      expect(all).toEqual([...all].sort());
    });

    it('walks every page of a small limit without gaps or repeats', async () => {
      const seen: string[] = [];
      for (let p = 1; p <= 4; p++) {
        const res = await page(`?limit=8&page=${p}`);
        expect(res.body.pagination).toMatchObject({ page: p, limit: 8, total: 30, total_pages: 4, has_more: p < 4 });
        seen.push(...res.body.data.map((m: { email: string }) => m.email));
      }
      expect(seen).toHaveLength(30);
      expect(seen).toEqual([...seen].sort());
      expect(new Set(seen).size).toBe(30);
    });

    it('a page past the end is empty, with the real totals', async () => {
      const res = await page('?page=3');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({ page: 3, limit: 25, total: 30, total_pages: 2, has_more: false });
    });

    it('accepts the limit bounds 1 and 100', async () => {
      expect((await page('?limit=1')).body.data).toHaveLength(1);
      const max = await page('?limit=100');
      expect(max.body.data).toHaveLength(30);
      expect(max.body.pagination).toEqual({ page: 1, limit: 100, total: 30, total_pages: 1, has_more: false });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=-1', 'limit'],
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['page=', 'page'],
      ['sort=email', 'sort'],
    ])('rejects %s with 400 VALIDATION_ERROR naming the parameter', async (query, field) => {
      const res = await page(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure('VALIDATION_ERROR', expect.stringContaining(field)));
      expect(res.body.details).toEqual([expect.objectContaining({ field })]);
    });
  });

  describe('authentication (401 from the authorizer, on both routes)', () => {
    const paths = () => [`/api/v1/organization/${acme.org}/users`, '/api/v1/public/users'];
    const unauthorized = failure('UNAUTHORIZED');

    it.each([
      ['no Authorization header', undefined],
      ['an empty bearer', 'Bearer '],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['a token with spaces', 'Bearer a b'],
      ['garbage', 'Bearer not-a-token'],
      ['an unknown org key', 'Bearer pk_org_0000000000000000000000000000'],
      ['an unknown personal key', 'Bearer pk_user_000000000000000000000000000'],
    ])('refuses %s', async (_label, authorization) => {
      for (const path of paths()) {
        const res = await call(runtime.apiUrl, 'GET', path, { authorization });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(unauthorized);
      }
    });

    it('refuses forged, tampered, expired, wrong-audience and wrong-issuer ID tokens', async () => {
      const { generateKeyPair, SignJWT } = await import('jose');
      const { loadIdentityProvider } = await import('../../infra/local/identity-provider');
      const { dataDir } = localDeployment();
      const owner = acme.people.owner;
      const realKid = (await idp()).jwks.keys[0].kid!;
      const { privateKey: strangerKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT({ email: owner.email.toLowerCase(), email_verified: true, token_use: 'id' })
        .setProtectedHeader({ alg: 'RS256', kid: realKid })
        .setIssuer(runtime.issuer)
        .setAudience(runtime.audience)
        .setSubject(`local|${owner.id}`)
        .setExpirationTime('1h')
        .sign(strangerKey);
      const wrongAudience = await (
        await loadIdentityProvider(dataDir, runtime.issuer, 'another-app')
      ).issueIdToken({ sub: `local|${owner.id}`, email: owner.email });
      const wrongIssuer = await (
        await loadIdentityProvider(dataDir, 'https://issuer.example.com', runtime.audience)
      ).issueIdToken({ sub: `local|${owner.id}`, email: owner.email });
      const valid = await idTokenFor(owner);
      const tampered = `${valid.slice(0, -6)}AAAAAA`;
      const expired = await idTokenFor(owner, -60);
      expect((await get(`/api/v1/organization/${acme.org}/users`, valid)).status).toBe(200);
      for (const token of [forged, tampered, expired, wrongAudience, wrongIssuer]) {
        for (const path of paths()) {
          const res = await get(path, token);
          expect(res.status).toBe(401);
          expect(res.body).toEqual(unauthorized);
        }
      }
    });

    it('refuses an access token (token_use other than id) signed by the issuer', async () => {
      const { importJWK, SignJWT } = await import('jose');
      const { readFileSync } = await import('node:fs');
      const { dataDir } = localDeployment();
      const jwk = JSON.parse(readFileSync(`${dataDir}/idp/signing-key.jwk.json`, 'utf8'));
      const owner = acme.people.owner;
      const sign = async (tokenUse: string) =>
        new SignJWT({ email: owner.email.toLowerCase(), email_verified: true, token_use: tokenUse })
          .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
          .setIssuer(runtime.issuer)
          .setAudience(runtime.audience)
          .setSubject(`local|${owner.id}`)
          .setExpirationTime('1h')
          .sign(await importJWK(jwk, 'RS256'));
      expect((await get(`/api/v1/organization/${acme.org}/users`, await sign('id'))).status).toBe(200);
      const access = await get(`/api/v1/organization/${acme.org}/users`, await sign('access'));
      expect(access.status).toBe(401);
      expect(access.body).toEqual(unauthorized);
    });

    it('refuses a revoked key', async () => {
      const { createApiKey, revokeApiKey } = await import('../../shared/operator-tasks/api-keys');
      const { key, key_id } = await createApiKey(db, { orgId: acme.org, scopes: ['users:read'] }, new Date());
      expect((await get('/api/v1/public/users', key)).status).toBe(200);
      await revokeApiKey(db, key_id, new Date());
      for (const path of paths()) expect((await get(path, key)).body).toEqual(unauthorized);
    });
  });

  describe('authorization (403 from the route policy)', () => {
    // Who may list, and what every class of caller is answered, is the access matrix's
    // (test/integration/access-matrix.test.ts); here, what it does not try.
    it('admits the ID token of an active admin (the lowest role it admits), with the whole organization', async () => {
      const res = await get(`/api/v1/organization/${acme.org}/users`, await idTokenFor(acme.people.admin));
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(4);
    });

    it('does not match a user by an email the issuer has not verified', async () => {
      const admin = acme.people.admin;
      const unverified = await (await idp()).issueIdToken({ sub: `other-subject-${unique()}`, email: admin.email, emailVerified: false });
      const res = await get(`/api/v1/organization/${acme.org}/users`, unverified);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(failure('INSUFFICIENT_ROLE'));
    });

    it('refuses an unknown organization without saying whether it exists', async () => {
      const res = await get(`/api/v1/organization/org_missing_${unique()}/users`, await idTokenFor(acme.people.owner));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(failure('INSUFFICIENT_ROLE'));
    });
  });

  describe('counts', () => {
    it('total follows members joining, leaving and coming back; nothing is half-written on failure', async () => {
      const org = await seeded();
      const total = async () => (await get(`/api/v1/organization/${org.org}/users`, org.keys.full)).body.pagination.total;
      expect(await total()).toBe(4);

      const newcomer = other.people.viewer; // a user of another org joins this one
      await addMember(db, { orgId: org.org, userId: newcomer.id, role: 'member' }, new Date());
      expect(await total()).toBe(5);
      await ensureMembership(db, { orgId: org.org, userId: newcomer.id, role: 'member', status: 'removed' }, new Date());
      expect(await total()).toBe(4);
      await ensureMembership(db, { orgId: org.org, userId: org.people.pending.id, role: 'member', status: 'active' }, new Date());
      expect(await total()).toBe(5);
      const listed = (await get(`/api/v1/organization/${org.org}/users`, org.keys.full)).body.data.map(
        (m: { user_id: string }) => m.user_id,
      );
      expect(listed).toContain(org.people.pending.id);
      expect(listed).not.toContain(newcomer.id);

      // A membership of an unknown user fails whole: no membership, no count change.
      await expect(addMember(db, { orgId: org.org, userId: `usr_ghost_${unique()}`, role: 'member' }, new Date())).rejects.toMatchObject({
        code: 'USER_NOT_FOUND',
      });
      expect(await total()).toBe(5);
    });
  });
});

describe('GET /api/v1/public/users', () => {
  describe('the organization route’s answer', () => {
    it('the public alias returns exactly what the organization route returns', async () => {
      const viaOrg = await get(`/api/v1/organization/${acme.org}/users?limit=3&page=1`, acme.keys.full);
      const viaAlias = await get('/api/v1/public/users?limit=3&page=1', acme.keys.full);
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.body).toEqual(viaOrg.body);
    });
  });

  describe('the organization comes from the credential', () => {
    it('uses the org key’s organization, and accepts a matching org_id', async () => {
      const res = await get('/api/v1/public/users', other.keys.full);
      expect(res.body.data.map((m: { user_id: string }) => m.user_id)).toContain(other.people.owner.id);
      expect((await get(`/api/v1/public/users?org_id=${other.org}`, other.keys.full)).status).toBe(200);
    });

    it('an ID token of an admin of exactly one organization needs no org_id', async () => {
      const res = await get('/api/v1/public/users', await idTokenFor(acme.people.admin));
      expect(res.status).toBe(200);
      expect(res.body.data.map((m: { user_id: string }) => m.user_id)).toContain(acme.people.owner.id);
    });

    it('a signed-in user of no organization, without org_id: 403 INSUFFICIENT_ROLE', async () => {
      const stranger = await idTokenFor({ id: `nobody_${unique()}`, email: `nobody.${unique()}@example.com` });
      expect((await get('/api/v1/public/users', stranger)).body).toEqual(failure('INSUFFICIENT_ROLE'));
    });

    it('an admin of several organizations names one with org_id, else 400 ORG_ID_REQUIRED', async () => {
      const twoOrgs = await seeded();
      await addMember(db, { orgId: other.org, userId: twoOrgs.people.admin.id, role: 'admin' }, new Date());
      const token = await idTokenFor(twoOrgs.people.admin);
      const ambiguous = await get('/api/v1/public/users', token);
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body).toEqual(failure('ORG_ID_REQUIRED'));
      const named = await get(`/api/v1/public/users?org_id=${other.org}`, token);
      expect(named.status).toBe(200);
      expect(named.body.data.map((m: { user_id: string }) => m.user_id)).toContain(twoOrgs.people.admin.id);
      const notTheirs = await get(`/api/v1/public/users?org_id=${acme.org}`, token);
      expect(notTheirs.status).toBe(403);
      await ensureMembership(db, { orgId: other.org, userId: twoOrgs.people.admin.id, role: 'admin', status: 'removed' }, new Date());
    });
  });
});
