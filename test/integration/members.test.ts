import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../shared/schemas/audit';
import type { Member } from '../../shared/schemas/members';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { call, expectFailure, idTokenFor, localDeployment, seed, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { keys } from '../../shared/storage/keys';
import { latestToken } from '../support/invite-mail';
import { buildOrg, seedOrg, STAFF, type KeySpec, type PersonSpec, type StaffName } from '../support/org-builder';

/**
 * Members managed through the API end to end (HTTP -> local API emulator -> authorizer ->
 * handler -> DynamoDB Local, and the event pipeline for the audit log): changing a role
 * (PATCH) and removing a member or leaving (DELETE), who may do what to whom, the last
 * active owner's protection (also under concurrent demotions and departures), what a
 * removal leaves (recordings, the member count, List users) and what a later invitation
 * restores. Every test builds its own organization.
 */
const { runtime, db } = localDeployment();

const KEYS = {
  users: { scopes: ['users:read', 'users:write'] },
  audit: { scopes: ['audit:read'] },
  invites: { scopes: ['invites:write'] },
} satisfies Record<string, KeySpec<StaffName>>;

/** An organization with the four staff members (plus any other people), and the keys above. */
async function orgWith<P extends string = never>(people: Record<P, PersonSpec> = {} as Record<P, PersonSpec>) {
  return seedOrg(buildOrg({ label: 'mbr', people: { ...STAFF, ...people }, keys: KEYS }));
}
type Org = Awaited<ReturnType<typeof orgWith<string>>>;
type Person = Org['people'][string];

const userPath = (org: Org, userId: string) => `/api/v1/organization/${org.org}/users/${userId}`;
const patch = (org: Org, userId: string, token: string, body: unknown): Promise<ApiResponse> =>
  call(runtime.apiUrl, 'PATCH', userPath(org, userId), { token, body });
const remove = (org: Org, userId: string, token: string): Promise<ApiResponse> =>
  call(runtime.apiUrl, 'DELETE', userPath(org, userId), { token });
const as = (person: Person) => idTokenFor(person);

/** List users as the org key sees it: every active member and the total. */
async function members(org: Org): Promise<{ total: number; byId: Map<string, Member> }> {
  const res = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/users?limit=100`, { token: org.keys.users });
  expect(res.status).toBe(200);
  return { total: res.body.pagination.total, byId: new Map((res.body.data as Member[]).map((m) => [m.user_id, m])) };
}

/** The stored role and status of a membership (read back, not from the answer). */
async function standing(org: Org, person: Person) {
  const membership = await getMembership(db, org.org, person.id);
  return membership && { role: membership.role, status: membership.status };
}

/** The active owners of an organization, read back from List users. */
async function owners(org: Org): Promise<string[]> {
  return [...(await members(org)).byId.values()]
    .filter((m) => m.role === 'owner')
    .map((m) => m.user_id)
    .sort();
}

// ---------------------------------------------------------------------------------------

describe('PATCH /api/v1/organization/{orgId}/users/{userId}', () => {
  describe('results', () => {
    it("an owner changes a member's role: 200 {success, data: Member}; List users shows the new role", async () => {
      const org = await orgWith();
      const res = await patch(org, org.people.member.id, await as(org.people.owner), { role: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          user_id: org.people.member.id,
          email: org.people.member.email,
          display_name: org.people.member.display_name,
          role: 'admin',
          status: 'active',
          is_active: true,
          created_at: expect.stringMatching(TIMESTAMP),
          updated_at: expect.stringMatching(TIMESTAMP),
          member_since: expect.stringMatching(TIMESTAMP),
          recording_count: 0,
          latest_recording_at: null,
        },
      });
      const listed = (await members(org)).byId.get(org.people.member.id);
      expect(listed).toEqual(res.body.data);
    });

    it('an owner may give any role, owner included, and take it back from another owner', async () => {
      const org = await orgWith();
      const owner = await as(org.people.owner);
      for (const role of ['viewer', 'admin', 'owner'] as const) {
        expect((await patch(org, org.people.member.id, owner, { role })).body.data.role).toBe(role);
      }
      expect((await patch(org, org.people.member.id, owner, { role: 'member' })).status).toBe(200);
      expect(await owners(org)).toEqual([org.people.owner.id]);
    });

    it('the same role as now is a 200 that writes nothing (no new change stamp, so no event)', async () => {
      const org = await orgWith();
      const stored = async () =>
        (
          await db.client.send(
            new GetCommand({ TableName: db.tableName, Key: keys.membership(org.org, org.people.viewer.id), ConsistentRead: true }),
          )
        ).Item;
      const [listed, item] = [(await members(org)).byId.get(org.people.viewer.id)!, await stored()];
      const res = await patch(org, org.people.viewer.id, await as(org.people.admin), { role: 'viewer' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(listed);
      expect(await stored()).toEqual(item);
    });

    it('an admin changes members and viewers, to member or viewer', async () => {
      const org = await orgWith();
      const admin = await as(org.people.admin);
      expect((await patch(org, org.people.member.id, admin, { role: 'viewer' })).body.data.role).toBe('viewer');
      expect((await patch(org, org.people.viewer.id, admin, { role: 'member' })).body.data.role).toBe('member');
      expect(await standing(org, org.people.member)).toEqual({ role: 'viewer', status: 'active' });
      expect(await standing(org, org.people.viewer)).toEqual({ role: 'member', status: 'active' });
    });

    it('an org key with users:write acts as an admin would', async () => {
      const org = await orgWith();
      expect((await patch(org, org.people.member.id, org.keys.users, { role: 'viewer' })).body.data.role).toBe('viewer');
    });
  });

  describe('who may change whom', () => {
    it.each([
      ['an admin', 'another admin', 'CANNOT_MANAGE_MEMBER', 'admin', 'admin2', 'member'],
      ['an admin', 'an owner', 'CANNOT_MANAGE_MEMBER', 'admin', 'owner', 'member'],
      ['an admin', 'themselves', 'CANNOT_MANAGE_MEMBER', 'admin', 'admin', 'member'],
      ['an admin', 'a member to admin', 'CANNOT_ASSIGN_ROLE', 'admin', 'member', 'admin'],
      ['an admin', 'a viewer to owner', 'CANNOT_ASSIGN_ROLE', 'admin', 'viewer', 'owner'],
      ['an org key', 'an admin', 'CANNOT_MANAGE_MEMBER', 'key', 'admin', 'viewer'],
      ['an org key', 'an owner', 'CANNOT_MANAGE_MEMBER', 'key', 'owner', 'viewer'],
      ['an org key', 'an owner to admin', 'CANNOT_ASSIGN_ROLE', 'key', 'owner', 'admin'],
      ['an org key', 'a member to admin', 'CANNOT_ASSIGN_ROLE', 'key', 'member', 'admin'],
      ['an org key', 'a member to owner', 'CANNOT_ASSIGN_ROLE', 'key', 'member', 'owner'],
    ] as const)('%s cannot change %s: 403 %s, nothing changes', async (_who, _whom, code, caller, target, role) => {
      const org = await orgWith({ admin2: { role: 'admin', first: 'ada' } });
      const before = await standing(org, org.people[target]);
      const token = caller === 'key' ? org.keys.users : await as(org.people.admin);
      expectFailure(await patch(org, org.people[target].id, token, { role }), 403, code);
      expect(await standing(org, org.people[target])).toEqual(before);
    });
  });

  describe('the target', () => {
    it.each(['removed', 'pending'] as const)('a %s member is 404 MEMBER_NOT_FOUND, and stays as they were', async (status) => {
      const org = await orgWith({ other: { role: 'member', status } });
      expectFailure(await patch(org, org.people.other.id, await as(org.people.owner), { role: 'admin' }), 404, 'MEMBER_NOT_FOUND');
      expect(await standing(org, org.people.other)).toEqual({ role: 'member', status });
    });

    it('an unknown user, or a member of another organization, is 404 MEMBER_NOT_FOUND', async () => {
      const [org, other] = await Promise.all([orgWith(), orgWith()]);
      const owner = await as(org.people.owner);
      expectFailure(await patch(org, 'usr_nobody', owner, { role: 'admin' }), 404, 'MEMBER_NOT_FOUND');
      expectFailure(await patch(org, other.people.member.id, owner, { role: 'admin' }), 404, 'MEMBER_NOT_FOUND');
      expect(await standing(other, other.people.member)).toEqual({ role: 'member', status: 'active' });
    });
  });

  describe('the body', () => {
    it.each([
      ['an unknown role', { role: 'superuser' }, 'role', 'invalid_value'],
      ['no role', {}, 'role', 'missing'],
      ['a role that is not a string', { role: 3 }, 'role', 'invalid_value'],
      ['another field', { role: 'admin', status: 'removed' }, 'status', 'unknown'],
    ])('%s is 400 VALIDATION_ERROR naming the field', async (_label, body, field, issue) => {
      const org = await orgWith();
      const res = await patch(org, org.people.member.id, await as(org.people.owner), body);
      expectFailure(res, 400, 'VALIDATION_ERROR');
      expect(res.body.details).toEqual([expect.objectContaining({ field, issue })]);
      expect(await standing(org, org.people.member)).toEqual({ role: 'member', status: 'active' });
    });
  });

  describe('the last active owner', () => {
    it('cannot be demoted, not even by themselves: 409 LAST_OWNER; with a second owner they can', async () => {
      const org = await orgWith();
      const owner = await as(org.people.owner);
      expectFailure(await patch(org, org.people.owner.id, owner, { role: 'admin' }), 409, 'LAST_OWNER');
      expect(await standing(org, org.people.owner)).toEqual({ role: 'owner', status: 'active' });

      expect((await patch(org, org.people.admin.id, owner, { role: 'owner' })).status).toBe(200);
      expect((await patch(org, org.people.owner.id, owner, { role: 'admin' })).body.data.role).toBe('admin');
      expect(await owners(org)).toEqual([org.people.admin.id]);
    });

    it('a removed or pending owner does not count as another owner', async () => {
      const org = await orgWith({ gone: { role: 'owner', status: 'removed' }, invited: { role: 'owner', status: 'pending' } });
      expectFailure(await patch(org, org.people.owner.id, await as(org.people.owner), { role: 'member' }), 409, 'LAST_OWNER');
    });

    it('two owners demoting each other at the same time: exactly one succeeds; one owner remains', async () => {
      // Whether the two requests overlap is up to the emulator: the loser is 409 LAST_OWNER when
      // they did, 403 when it was authorized after its caller had lost the owner role (an admin
      // cannot change an owner). test/domain/members.test.ts forces the overlap.
      for (let round = 0; round < 4; round++) {
        const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
        const [first, second] = [org.people.owner, org.people.second];
        const results = await Promise.all([
          patch(org, second.id, await as(first), { role: 'admin' }),
          patch(org, first.id, await as(second), { role: 'admin' }),
        ]);
        const [winner, loser] = results[0].status === 200 ? [first, results[1]] : [second, results[0]];
        expect(results.filter((res) => res.status === 200)).toHaveLength(1);
        // The loser either met the guard, or came after the winner had demoted it (then its own role no longer allows the change).
        expect(['409 LAST_OWNER', '403 CANNOT_MANAGE_MEMBER', '403 CANNOT_ASSIGN_ROLE']).toContain(`${loser.status} ${loser.body.error}`);
        expect(await owners(org)).toEqual([winner.id]);
      }
    });

    it('two owners demoting themselves at the same time: exactly one succeeds; one owner remains', async () => {
      for (let round = 0; round < 4; round++) {
        const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
        const [first, second] = [org.people.owner, org.people.second];
        const results = await Promise.all([
          patch(org, first.id, await as(first), { role: 'member' }),
          patch(org, second.id, await as(second), { role: 'member' }),
        ]);
        expect(results.map((res) => `${res.status} ${res.body.error ?? ''}`.trim()).sort()).toEqual(['200', '409 LAST_OWNER']);
        expect(await owners(org)).toHaveLength(1);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------

describe('DELETE /api/v1/organization/{orgId}/users/{userId}', () => {
  describe('results', () => {
    it('an owner removes a member: 200 with the membership as removed; List users and its total no longer count them', async () => {
      const org = await orgWith();
      const before = await members(org);
      const res = await remove(org, org.people.member.id, await as(org.people.owner));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          ...before.byId.get(org.people.member.id),
          status: 'removed',
          is_active: false,
          updated_at: expect.stringMatching(TIMESTAMP),
        },
      });
      const after = await members(org);
      expect(after.total).toBe(before.total - 1);
      expect(after.byId.has(org.people.member.id)).toBe(false);
      expect((await getOrganization(db, org.org))?.active_member_count).toBe(before.total - 1);
      expect(await standing(org, org.people.member)).toEqual({ role: 'member', status: 'removed' });
    });

    it("the removed member's recordings stay, attributed to them; their ID token no longer opens the organization", async () => {
      const org = await orgWith();
      const recId = org.recId('kept');
      await seed(db, {
        recordings: [{ id: recId, org_id: org.org, recorded_by: org.people.member.id, title: 'Kept', duration: 30, language: 'en' }],
      });
      const memberToken = await as(org.people.member);
      expect((await remove(org, org.people.member.id, await as(org.people.admin))).status).toBe(200);

      const recording = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/recordings/${recId}`, {
        token: await as(org.people.owner),
      });
      expect(recording.status).toBe(200);
      expect(recording.body.recorded_by).toBe(org.people.member.id);
      expect((await getMembership(db, org.org, org.people.member.id))?.recording_count).toBe(1);
      expectFailure(
        await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/recordings`, { token: memberToken }),
        403,
        'INSUFFICIENT_ROLE',
      );
    });

    it('an admin and an org key with users:write remove members and viewers', async () => {
      const org = await orgWith();
      expect((await remove(org, org.people.member.id, await as(org.people.admin))).body.data.status).toBe('removed');
      expect((await remove(org, org.people.viewer.id, org.keys.users)).body.data.status).toBe('removed');
    });

    it.each(['viewer', 'member', 'admin'] as const)('a %s leaves with their own ID token', async (name) => {
      const org = await orgWith();
      const res = await remove(org, org.people[name].id, await as(org.people[name]));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ user_id: org.people[name].id, role: name, status: 'removed' });
    });

    it('an owner leaves when another owner remains', async () => {
      const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
      expect((await remove(org, org.people.owner.id, await as(org.people.owner))).status).toBe(200);
      expect(await owners(org)).toEqual([org.people.second.id]);
    });

    it('an owner removes another owner', async () => {
      const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
      expect((await remove(org, org.people.second.id, await as(org.people.owner))).status).toBe(200);
      expect(await owners(org)).toEqual([org.people.owner.id]);
    });
  });

  describe('who may remove whom', () => {
    it.each([
      ['a viewer', 'a member', 'viewer', 'member'],
      ['a member', 'a viewer', 'member', 'viewer'],
      ['an admin', 'another admin', 'admin', 'admin2'],
      ['an admin', 'an owner', 'admin', 'owner'],
      ['an org key', 'an admin', 'key', 'admin'],
      ['an org key', 'an owner', 'key', 'owner'],
    ] as const)('%s cannot remove %s: 403 CANNOT_MANAGE_MEMBER, nothing changes', async (_who, _whom, caller, target) => {
      const org = await orgWith({ admin2: { role: 'admin', first: 'ada' } });
      const before = await standing(org, org.people[target]);
      const token = caller === 'key' ? org.keys.users : await as(org.people[caller]);
      expectFailure(await remove(org, org.people[target].id, token), 403, 'CANNOT_MANAGE_MEMBER');
      expect(await standing(org, org.people[target])).toEqual(before);
    });

    it('a viewer trying to remove an unknown user learns nothing: 403, not 404', async () => {
      const org = await orgWith();
      expectFailure(await remove(org, 'usr_nobody', await as(org.people.viewer)), 403, 'CANNOT_MANAGE_MEMBER');
    });
  });

  describe('the target', () => {
    it('a member removed already, or never active, is 404 MEMBER_NOT_FOUND; the count moves once', async () => {
      const org = await orgWith({ invited: { role: 'member', status: 'pending' } });
      const owner = await as(org.people.owner);
      const count = (await getOrganization(db, org.org))!.active_member_count;
      expect((await remove(org, org.people.member.id, owner)).status).toBe(200);
      expectFailure(await remove(org, org.people.member.id, owner), 404, 'MEMBER_NOT_FOUND');
      expectFailure(await remove(org, org.people.invited.id, owner), 404, 'MEMBER_NOT_FOUND');
      expectFailure(await remove(org, 'usr_nobody', owner), 404, 'MEMBER_NOT_FOUND');
      expect((await getOrganization(db, org.org))!.active_member_count).toBe(count - 1);
    });

    it('five concurrent removals of one member: one 200, four 404; the count moves once', async () => {
      const org = await orgWith();
      const count = (await getOrganization(db, org.org))!.active_member_count;
      const owner = await as(org.people.owner);
      const results = await Promise.all(Array.from({ length: 5 }, () => remove(org, org.people.member.id, owner)));
      expect(results.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404]);
      expect((await getOrganization(db, org.org))!.active_member_count).toBe(count - 1);
    });
  });

  describe('the last active owner', () => {
    it('cannot leave, nor be removed: 409 LAST_OWNER', async () => {
      const org = await orgWith();
      expectFailure(await remove(org, org.people.owner.id, await as(org.people.owner)), 409, 'LAST_OWNER');
      expect(await standing(org, org.people.owner)).toEqual({ role: 'owner', status: 'active' });
    });

    it('two owners leaving at the same time: exactly one leaves, the other is 409 LAST_OWNER', async () => {
      for (let round = 0; round < 4; round++) {
        const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
        const [first, second] = [org.people.owner, org.people.second];
        const results = await Promise.all([remove(org, first.id, await as(first)), remove(org, second.id, await as(second))]);
        expect(results.map((res) => `${res.status} ${res.body.error ?? ''}`.trim()).sort()).toEqual(['200', '409 LAST_OWNER']);
        expect(await owners(org)).toHaveLength(1);
      }
    });

    it('two owners removing each other at the same time: exactly one is removed', async () => {
      for (let round = 0; round < 4; round++) {
        const org = await orgWith({ second: { role: 'owner', first: 'sam' } });
        const [first, second] = [org.people.owner, org.people.second];
        const results = await Promise.all([remove(org, second.id, await as(first)), remove(org, first.id, await as(second))]);
        const loser = results.find((res) => res.status !== 200)!;
        expect(results.filter((res) => res.status === 200)).toHaveLength(1);
        // 403 when the loser's request was authorized after its caller had been removed (see the PATCH race above).
        expect(['409 LAST_OWNER', '403 INSUFFICIENT_ROLE']).toContain(`${loser.status} ${loser.body.error}`);
        expect(await owners(org)).toHaveLength(1);
      }
    });
  });

  it('a removed member invited again and accepting is active again, with the invitation’s role and their recordings count', async () => {
    const org = await orgWith();
    await seed(db, {
      recordings: [
        { id: org.recId('back'), org_id: org.org, recorded_by: org.people.member.id, title: 'Before', duration: 30, language: 'en' },
      ],
    });
    expect((await remove(org, org.people.member.id, await as(org.people.owner))).status).toBe(200);
    const before = await members(org);

    const invite = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${org.org}/invites`, {
      token: org.keys.invites,
      body: { email: org.people.member.email, role: 'viewer' },
    });
    expect(invite.status).toBe(201);
    const token = await latestToken(org.people.member.email);
    const accepted = await call(runtime.apiUrl, 'POST', '/api/v1/organization/invites/accept', {
      token: await as(org.people.member),
      body: { token },
    });
    expect(accepted.body).toEqual({ org_id: org.org, role: 'viewer', status: 'active' });

    const after = await members(org);
    expect(after.total).toBe(before.total + 1);
    expect(after.byId.get(org.people.member.id)).toMatchObject({ role: 'viewer', status: 'active', recording_count: 1 });
  });
});

// ---------------------------------------------------------------------------------------

describe('member changes in the audit log (through the local event pipeline)', () => {
  it('a role change is member.updated and a removal member.removed, each with its actor and request', async () => {
    const org = await orgWith();
    const owner = await as(org.people.owner);
    const headers = (name: string) => ({ 'x-correlation-id': `mbr-${name}-${org.id}` });
    const changed = await call(runtime.apiUrl, 'PATCH', userPath(org, org.people.viewer.id), {
      token: owner,
      body: { role: 'member' },
      headers: headers('patch'),
    });
    expect(changed.status).toBe(200);
    const removed = await call(runtime.apiUrl, 'DELETE', userPath(org, org.people.viewer.id), {
      token: org.keys.users,
      headers: headers('delete'),
    });
    expect(removed.status).toBe(200);

    const read = () =>
      call<{ entries: AuditEntry[] }>(
        runtime.apiUrl,
        'GET',
        `/api/v1/organization/${org.org}/audit-log?resource_id=${org.people.viewer.id}`,
        { token: org.keys.audit },
      );
    const entries = (await eventually(read, (res) => res.body.entries.filter((e) => e.type !== 'member.joined').length >= 2)).body.entries;
    expect(entries.filter((e) => e.type !== 'member.joined')).toEqual([
      expect.objectContaining({
        type: 'member.removed',
        actor: { kind: 'api_key', id: apiKeyIdFromHash(hashApiKey(org.keys.users)) },
        resource: { type: 'member', id: org.people.viewer.id },
        correlation_id: `mbr-delete-${org.id}`,
      }),
      expect.objectContaining({
        type: 'member.updated',
        actor: { kind: 'user', id: org.people.owner.id },
        resource: { type: 'member', id: org.people.viewer.id },
        correlation_id: `mbr-patch-${org.id}`,
        changes: ['role'],
      }),
    ]);
  });
});
