import type { Caller } from '../../auth/policy';
import { type Role, roleAtLeast } from '../../core/access';
import { ForbiddenError, ConflictError } from '../../core/errors';
import { newId } from '../../ids';
import { type InviteRecord, QUEUED_DELIVERY } from '../../storage/invite-items';
import { commitInviteSending } from '../../storage/invite-writes';
import { getMembership } from '../../storage/memberships';
import { WriteConflict } from '../../storage/transactions';
import { findUserIdByEmail } from '../../storage/users';
import { InviteDeps, committed, expiryFrom } from './invite-changes';
import { inviteView } from './invite-views';

/**
 * Invites an email to the organization; only an owner may invite an owner (the refusals are
 * the route's, shared/routes/invites/send-invite.ts). The invite (its email queued, no token
 * yet) and the one-pending-invite-per-email guard are written in one transaction; the invitation
 * mail consumer sends the email, with the link's token, from the invite.created event.
 */
export async function sendInvite(deps: InviteDeps, caller: Caller, request: { email: string; role: Role }) {
  const { db } = deps;
  if (request.role === 'owner' && (caller.kind === 'org_key' || !roleAtLeast(caller.role, 'owner'))) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', 'Only an owner can invite an owner.');
  }
  return committed(async () => {
    const userId = await findUserIdByEmail(db, request.email);
    const membership = userId ? await getMembership(db, caller.orgId, userId) : undefined;
    if (membership?.status === 'active')
      throw new ConflictError('ALREADY_MEMBER', `${request.email} is already a member of this organization.`);

    const now = deps.now();
    const invite: InviteRecord = {
      id: newId('inv'),
      org_id: caller.orgId,
      email: request.email,
      role: request.role,
      status: 'pending',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: expiryFrom(now, deps.settings),
      invited_by: caller.actor,
      delivery: QUEUED_DELIVERY,
    };
    try {
      // The email's pending slot may be taken over from an invite that has expired by now.
      await commitInviteSending(db, { invite, slotFreeAt: now.toISOString() });
    } catch (error) {
      // The slot is held by a pending invite (maybe a concurrent send's): final. Anything else is planned again.
      if (error instanceof WriteConflict && error.failedAt('emailGuard')) {
        throw new ConflictError('INVITE_PENDING', `${request.email} already has a pending invitation to this organization.`);
      }
      throw error;
    }
    return inviteView(invite, now);
  });
}
