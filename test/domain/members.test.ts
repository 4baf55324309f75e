import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberCaller } from '../../shared/auth/policy';
import { type MemberManager } from '../../shared/domain/members/member-changes';
import { removeMember } from '../../shared/domain/members/remove-member';
import { updateMember } from '../../shared/domain/members/update-member';
import type { TableContext } from '../../shared/storage/dynamo';
import { getMembership, listActiveMembers } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { localDeployment, seed, unique } from '../support/api';

/**
 * The last-owner guard of shared/domain/members/change-member.ts under a forced race: both
 * requests read and plan before either commits (a barrier holds each first transaction until
 * the other's is ready), which the HTTP tests cannot guarantee. Each request acts as it was
 * authorized, as an owner; the transactions decide.
 */
const { db } = localDeployment();
const T0 = new Date('2026-03-01T10:00:00.000Z');

/** An organization with two active owners (and a member), and each owner as the route policy authorized them. */
async function twoOwners(): Promise<{ orgId: string; first: MemberCaller; second: MemberCaller }> {
  const u = unique();
  const orgId = `org_dmbr_${u}`;
  const ids = { first: `usr_a_${u}`, second: `usr_b_${u}`, member: `usr_m_${u}` };
  await seed(db, {
    orgs: [{ id: orgId, name: 'Owners' }],
    users: Object.entries(ids).map(([name, id]) => ({ id, email: `${name}.${u}@example.com`, display_name: name })),
    memberships: [
      { org_id: orgId, user_id: ids.first, role: 'owner' },
      { org_id: orgId, user_id: ids.second, role: 'owner' },
      { org_id: orgId, user_id: ids.member, role: 'member' },
    ],
  });
  const owner = (userId: string): MemberCaller => ({ kind: 'id_token', orgId, userId, role: 'owner', actor: userId });
  return { orgId, first: owner(ids.first), second: owner(ids.second) };
}

/**
 * Two table contexts whose first transactions wait for each other, then go out together:
 * both requests have read and planned from the same state before either writes.
 */
function heldTogether(): [TableContext, TableContext] {
  let arrived = 0;
  let release!: () => void;
  const bothReady = new Promise<void>((resolve) => (release = resolve));
  const held = (): TableContext => {
    let first = true;
    const client = new Proxy(db.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: Parameters<typeof target.send>[0]) => {
          if (command instanceof TransactWriteCommand && first) {
            first = false;
            if (++arrived === 2) release();
            await bothReady;
          }
          return target.send(command);
        };
      },
    });
    return { ...db, client };
  };
  return [held(), held()];
}

const outcome = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'fulfilled'
    ? 'ok'
    : `${(settled.reason as { statusCode?: number }).statusCode} ${(settled.reason as { code?: string }).code}`;

async function activeOwners(orgId: string): Promise<string[]> {
  return (await listActiveMembers(db, orgId, { offset: 0, limit: 100 })).filter((m) => m.role === 'owner').map((m) => m.user_id);
}

describe('the last active owner, when both requests planned before either committed', () => {
  it('two owners demoting each other: one commits, the other ends in 409 LAST_OWNER; one owner remains', async () => {
    const { orgId, first, second } = await twoOwners();
    const [dbA, dbB] = heldTogether();
    const results = await Promise.allSettled([
      updateMember({ db: dbA, now: () => T0 }, first, second.userId, 'admin'),
      updateMember({ db: dbB, now: () => T0 }, second, first.userId, 'admin'),
    ]);
    expect(results.map(outcome).sort()).toEqual(['409 LAST_OWNER', 'ok']);
    expect(await activeOwners(orgId)).toHaveLength(1);
  });

  it('two owners demoting themselves: one commits, the other ends in 409 LAST_OWNER', async () => {
    const { orgId, first, second } = await twoOwners();
    const [dbA, dbB] = heldTogether();
    const results = await Promise.allSettled([
      updateMember({ db: dbA, now: () => T0 }, first, first.userId, 'member'),
      updateMember({ db: dbB, now: () => T0 }, second, second.userId, 'viewer'),
    ]);
    expect(results.map(outcome).sort()).toEqual(['409 LAST_OWNER', 'ok']);
    expect(await activeOwners(orgId)).toHaveLength(1);
  });

  it('two owners leaving, or removing each other: one membership is removed, the count moves once', async () => {
    for (const crossed of [false, true]) {
      const { orgId, first, second } = await twoOwners();
      const [dbA, dbB] = heldTogether();
      const results = await Promise.allSettled([
        removeMember({ db: dbA, now: () => T0 }, first, crossed ? second.userId : first.userId),
        removeMember({ db: dbB, now: () => T0 }, second, crossed ? first.userId : second.userId),
      ]);
      expect(results.map(outcome).sort()).toEqual(['409 LAST_OWNER', 'ok']);
      expect(await activeOwners(orgId)).toHaveLength(1);
      expect((await getOrganization(db, orgId))?.active_member_count).toBe(2);
    }
  });

  it('an org key cannot touch an owner, whatever it asks', async () => {
    const { orgId, first } = await twoOwners();
    const key: MemberManager = { kind: 'org_key', orgId, keyId: 'key_x', scopes: ['users:write'], actor: 'key_x' };
    await expect(updateMember({ db, now: () => T0 }, key, first.userId, 'member')).rejects.toMatchObject({
      statusCode: 403,
      code: 'CANNOT_MANAGE_MEMBER',
    });
    await expect(removeMember({ db, now: () => T0 }, key, first.userId)).rejects.toMatchObject({
      statusCode: 403,
      code: 'CANNOT_MANAGE_MEMBER',
    });
    expect(await getMembership(db, orgId, first.userId)).toMatchObject({ role: 'owner', status: 'active' });
  });

  it('a change stamps updated_at with the clock and keeps the counters other writers keep', async () => {
    const { orgId, first, second } = await twoOwners();
    const before = (await getMembership(db, orgId, second.userId))!;
    const T1 = new Date('2026-03-02T08:00:00.000Z');
    const member = await updateMember({ db, now: () => T1 }, first, second.userId, 'viewer');
    expect(member).toMatchObject({
      role: 'viewer',
      updated_at: T1.toISOString(),
      created_at: before.created_at,
      recording_count: before.recording_count,
    });
    expect(await getMembership(db, orgId, second.userId)).toEqual({ ...before, role: 'viewer', updated_at: T1.toISOString() });
  });
});
