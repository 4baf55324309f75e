import type { Role } from '../../core/access';
import type { MemberCaller, OrgKeyCaller } from '../../auth/policy';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import type { Member } from '../../schemas/members';
import type { TableContext } from '../../storage/dynamo';
import type { Membership } from '../../storage/membership-items';
import { findOtherActiveOwner, getMembership } from '../../storage/memberships';
import { commitMemberChange } from '../../storage/membership-writes';
import { type MemberChange } from '../../storage/membership-writes';
import { WriteConflict } from '../../storage/transactions';
import { retryOnWriteConflict } from '../../storage/write-retries';
import { toMember } from './list-users';

/** What changing or removing a member needs. */
export interface MemberChangeDeps {
  db: TableContext;
  now: () => Date;
}

/** Who may change or remove members: a signed-in member, or an org key (personal keys never reach these routes). */
export type MemberManager = MemberCaller | OrgKeyCaller;

/**
 * What a caller may do to other members. Owners do anything; admins, and org keys with
 * users:write (a key must not grant more than an admin could), touch members and viewers
 * only and hand out only those roles; members and viewers touch nobody but themselves.
 */
type Powers = 'owner' | 'admin' | 'none';

export function powersOf(caller: MemberManager): Powers {
  if (caller.kind === 'org_key') return 'admin';
  return caller.role === 'owner' ? 'owner' : caller.role === 'admin' ? 'admin' : 'none';
}

/** The roles an admin (or an org key) may manage and assign. */
export const ADMIN_MANAGED: readonly Role[] = ['member', 'viewer'];

/** How many times a change is planned again after losing a race before answering 409 CONCURRENT_UPDATE. */
const ATTEMPTS = 10;

/**
 * The read-plan-commit step both changes share, retried on a write conflict: read the target
 * (a consistent read: an answer such as "already that role" must not come from a replaced
 * state), let `plan` refuse or decide the change (undefined: nothing to do), and, when the
 * change takes an owner away, name another active owner whose membership the transaction
 * checks. The caller is that owner when they are one and not the target (no read needed);
 * otherwise, or once the caller turned out not to be one any more, the org's active members
 * are searched for one.
 */
export async function applyChange(
  { db, now }: MemberChangeDeps,
  caller: MemberManager,
  userId: string,
  plan: (target: Membership) => MemberChange | undefined,
): Promise<Member> {
  let callerIsOwner = caller.kind === 'id_token' && caller.role === 'owner';
  return retryOnWriteConflict(
    async () => {
      const target = await getMembership(db, caller.orgId, userId, { consistent: true });
      if (target?.status !== 'active')
        throw new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not an active member of this organization.`);
      const change = plan(target);
      if (!change) return toMember(target);

      const losesOwner = target.role === 'owner' && (change.kind === 'removal' || change.role !== 'owner');
      const callerRemains = losesOwner && callerIsOwner && caller.kind === 'id_token' && caller.userId !== userId;
      const remainingOwnerId = !losesOwner
        ? undefined
        : callerRemains
          ? caller.actor
          : await findOtherActiveOwner(db, caller.orgId, userId);
      if (losesOwner && !remainingOwnerId) {
        throw new ConflictError('LAST_OWNER', 'The organization would be left without an active owner: make someone else an owner first.');
      }

      const timestamp = now().toISOString();
      try {
        await commitMemberChange(db, target, change, { now: timestamp, remainingOwnerId });
      } catch (error) {
        // The owner we counted on is not one any more: look for another next time.
        if (callerRemains && error instanceof WriteConflict && error.failedAt('remainingOwner')) callerIsOwner = false;
        throw error;
      }
      const next: Membership =
        change.kind === 'role'
          ? { ...target, role: change.role, updated_at: timestamp }
          : { ...target, status: 'removed', updated_at: timestamp };
      return toMember(next);
    },
    {
      attempts: ATTEMPTS,
      exhausted: () => new ConflictError('CONCURRENT_UPDATE', "The organization's members kept changing under this request; retry it."),
    },
  );
}

export function cannotManage(message: string): ForbiddenError {
  return new ForbiddenError('CANNOT_MANAGE_MEMBER', message);
}

export const article = (role: Role) => (role === 'owner' || role === 'admin' ? `an ${role}` : `a ${role}`);
