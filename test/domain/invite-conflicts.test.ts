import type { Role } from '../../shared/core/access';
import type { Caller } from '../../shared/auth/policy';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { type InviteDeps } from '../../shared/domain/invites/invite-changes';
import { resendInvite } from '../../shared/domain/invites/resend-invite';
import { revokeInvite } from '../../shared/domain/invites/revoke-invite';
import { sendInvite } from '../../shared/domain/invites/send-invite';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { getEmailGuard, getInvite, listInvites } from '../../shared/storage/invites';
import { unique } from '../support/api';
import { isolatedTable } from '../support/invite-mail';
import { tableWithConflicts, tableWithInterference, tableWithRacingTransactions } from '../support/transaction-conflicts';

/**
 * Send, revoke and resend under the transaction conflicts DynamoDB raises when two
 * transactions write one item at once (DynamoDB Local never does): the real SDK path
 * against the emulator, with the conflicts injected (test/support/transaction-conflicts.ts).
 * A conflict is planned again on a fresh read; only a request that keeps losing answers
 * 409 CONCURRENT_UPDATE, and a loser never contradicts itself.
 */
const TTL_SECONDS = 3600;
const T0 = Date.now();
const HOUR_MS = 3_600_000;

let db: TableContext;
beforeAll(async () => {
  db = await isolatedTable('invite-conflicts');
});

const depsOn = (table: TableContext, at = T0): InviteDeps => ({
  db: table,
  now: () => new Date(at),
  settings: { ttlSeconds: TTL_SECONDS },
});

/** An organization with an admin, and a caller acting as that admin. */
async function orgWithAdmin() {
  const suffix = unique();
  const created = new Date(T0);
  const org = await createOrganization(db, { id: `org_dinvc_${suffix}`, name: 'Invite conflicts' }, created);
  const admin = await createUser(db, { id: `usr_dinvc_${suffix}`, email: `adam.${suffix}@example.com`, display_name: 'Adam' }, created);
  await addMember(db, { orgId: org.org_id, userId: admin.user_id, role: 'admin' }, created);
  const asAdmin: Caller = { kind: 'id_token', orgId: org.org_id, userId: admin.user_id, role: 'admin', actor: admin.user_id };
  return { orgId: org.org_id, asAdmin, address: (name: string) => `${name}.${suffix}@invitee.example.com` };
}
type Org = Awaited<ReturnType<typeof orgWithAdmin>>;

const sent = (org: Org, name: string, role: Role = 'member') => sendInvite(depsOn(db), org.asAdmin, { email: org.address(name), role });
const concurrentUpdate = { statusCode: 409, code: 'CONCURRENT_UPDATE' };

/** A table on which the invite is removed (as DynamoDB's TTL does once it expired) after it was read, before the first transaction. */
const removedMeanwhile = (org: Org, inviteId: string) =>
  tableWithInterference(db, async (transaction) => {
    if (transaction === 1) await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.invite(org.orgId, inviteId) }));
  }).table;

describe('sendInvite', () => {
  it('sends again after a TransactionConflict: one pending invite holding its email', async () => {
    const org = await orgWithAdmin();
    const { table, transactions } = tableWithConflicts(db, [1]);
    const invite = await sendInvite(depsOn(table), org.asAdmin, { email: org.address('retried'), role: 'member' });
    expect(transactions()).toBe(2);
    expect(invite).toMatchObject({ email: org.address('retried'), status: 'pending' });
    expect((await listInvites(db, org.orgId)).map(({ id, status }) => ({ id, status }))).toEqual([{ id: invite.id, status: 'pending' }]);
    expect(await getEmailGuard(db, org.orgId, org.address('retried'))).toMatchObject({ invite_id: invite.id });
  });

  it('answers 409 CONCURRENT_UPDATE when it keeps conflicting, and writes nothing', async () => {
    const org = await orgWithAdmin();
    const { table, transactions } = tableWithConflicts(db, 'always');
    await expect(sendInvite(depsOn(table), org.asAdmin, { email: org.address('lost'), role: 'member' })).rejects.toMatchObject(
      concurrentUpdate,
    );
    expect(transactions()).toBe(10);
    expect(await listInvites(db, org.orgId)).toEqual([]);
  });

  it('of concurrent sends to one email, one invites and the others answer INVITE_PENDING', async () => {
    const org = await orgWithAdmin();
    const { table, conflicts } = tableWithRacingTransactions(db, 4);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => sendInvite(depsOn(table), org.asAdmin, { email: org.address('same'), role: 'member' })),
    );
    expect(conflicts()).toBeGreaterThanOrEqual(3);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(outcome.reason).toMatchObject({ statusCode: 409, code: 'INVITE_PENDING' });
    }
    expect(await listInvites(db, org.orgId)).toHaveLength(1);
  });
});

describe('revokeInvite', () => {
  it('revokes after a TransactionConflict, freeing the email', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'revoked');
    const { table, transactions } = tableWithConflicts(db, [1]);
    await revokeInvite(depsOn(table, T0 + 60_000), org.orgId, invite.id);
    expect(transactions()).toBe(2);
    expect(await getInvite(db, org.orgId, invite.id)).toMatchObject({ status: 'revoked' });
    expect(await getEmailGuard(db, org.orgId, invite.email)).toBeUndefined();
  });

  it('answers 409 CONCURRENT_UPDATE when it keeps conflicting, leaving the invite pending', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'kept');
    const { table, transactions } = tableWithConflicts(db, 'always');
    await expect(revokeInvite(depsOn(table, T0 + 60_000), org.orgId, invite.id)).rejects.toMatchObject(concurrentUpdate);
    expect(transactions()).toBe(10);
    expect(await getInvite(db, org.orgId, invite.id)).toMatchObject({ status: 'pending' });
  });

  it('of concurrent revokes, one revokes and the others say the invite is revoked', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'twice');
    const { table } = tableWithRacingTransactions(db, 3);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 }, () => revokeInvite(depsOn(table, T0 + 60_000), org.orgId, invite.id)),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(outcome.reason).toMatchObject({
        statusCode: 409,
        code: 'INVITE_NOT_PENDING',
        message: `Invitation ${invite.id} is revoked, not pending.`,
      });
    }
  });

  it('of an invite removed by its TTL after it was read, says it does not exist (never "pending, not pending")', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'ttl_revoke');
    await expect(revokeInvite(depsOn(removedMeanwhile(org, invite.id), T0 + 2 * HOUR_MS), org.orgId, invite.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'INVITE_NOT_FOUND',
    });
  });
});

describe('resendInvite', () => {
  it('resends after a TransactionConflict: a new expiry, its email queued anew', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'resent');
    const later = T0 + 2 * HOUR_MS;
    const { table, transactions } = tableWithConflicts(db, [1]);
    await resendInvite(depsOn(table, later), org.asAdmin, invite.id);
    expect(transactions()).toBe(2);
    expect(await getInvite(db, org.orgId, invite.id)).toMatchObject({
      status: 'pending',
      resent_at: new Date(later).toISOString(),
      expires_at: new Date(later + TTL_SECONDS * 1000).toISOString(),
      delivery: { status: 'queued' },
    });
  });

  it('answers 409 CONCURRENT_UPDATE when it keeps conflicting, leaving the invite as it was', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'stuck');
    const before = await getInvite(db, org.orgId, invite.id);
    const { table, transactions } = tableWithConflicts(db, 'always');
    await expect(resendInvite(depsOn(table, T0 + HOUR_MS), org.asAdmin, invite.id)).rejects.toMatchObject(concurrentUpdate);
    expect(transactions()).toBe(10);
    expect(await getInvite(db, org.orgId, invite.id)).toEqual(before);
  });

  it('of an invite removed by its TTL after it was read, says it does not exist (never "pending, not pending")', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'ttl_resend');
    await expect(resendInvite(depsOn(removedMeanwhile(org, invite.id), T0 + 2 * HOUR_MS), org.asAdmin, invite.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'INVITE_NOT_FOUND',
    });
  });

  it('concurrent resends of one invite all succeed (the losers resend again on the fresh invite): it stays pending, holding its email', async () => {
    const org = await orgWithAdmin();
    const invite = await sent(org, 'often');
    const resends = 5;
    const { table, conflicts } = tableWithRacingTransactions(db, resends);
    const outcomes = await Promise.allSettled(
      Array.from({ length: resends }, (_, i) => resendInvite(depsOn(table, T0 + (i + 1) * 60_000), org.asAdmin, invite.id)),
    );
    expect(conflicts()).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(await getInvite(db, org.orgId, invite.id)).toMatchObject({ status: 'pending', delivery: { status: 'queued' } });
    expect(await getEmailGuard(db, org.orgId, invite.email)).toMatchObject({ invite_id: invite.id });
  });
});
