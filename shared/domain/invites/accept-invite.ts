import type { IdTokenPrincipal } from '../../auth/principal';
import { ForbiddenError, ConflictError, ApiError, NotFoundError } from '../../core/errors';
import { newId } from '../../ids';
import { DEFAULT_TIMEZONE } from '../../schemas/common';
import { currentChangeContext, withChangeContext } from '../../storage/change-stamp';
import type { InviteRecord } from '../../storage/invite-items';
import { findInviteByTokenHash } from '../../storage/invites';
import { commitInviteAcceptance } from '../../storage/invite-writes';
import type { Membership } from '../../storage/membership-items';
import { getMembership } from '../../storage/memberships';
import { findUserIdByEmail, type User, getUser } from '../../storage/users';
import { InviteDeps, committed, holdsEmailSlot } from './invite-changes';
import { statusOf } from './invite-views';
import { hashInviteToken } from './invite-tokens';

/**
 * Accepts an invitation for the signed-in caller, whose verified email must be the
 * invite's. In one transaction: the invite becomes accepted (only if still pending with
 * this token), the caller's user is created from the token's claims when missing, the
 * membership becomes active with the invite's role (the org's member count follows), and
 * the email guard is released. Of two concurrent accepts, one commits.
 */
export async function acceptInvite(deps: Pick<InviteDeps, 'db' | 'now'>, principal: IdTokenPrincipal, token: string) {
  const { db } = deps;
  const hash = hashInviteToken(token);
  // A lost race (another accept, a revoke or resend, the membership changed, or DynamoDB's
  // TransactionConflict) is planned again on a fresh read, which says what the invite is now.
  return committed(async () => {
    const invite = await findInviteByTokenHash(db, hash);
    const now = deps.now();
    if (!invite) throw new NotFoundError('INVITE_NOT_FOUND', 'No invitation matches this token.');
    checkAcceptable(invite, now, principal);

    const timestamp = now.toISOString();
    const existingUserId = principal.userId ?? (await findUserIdByEmail(db, invite.email));
    const user: User | undefined = existingUserId ? await getUser(db, existingUserId) : undefined;
    const userId = user?.user_id ?? newId('usr');
    const [membership, releasesEmailGuard] = await Promise.all([
      user ? getMembership(db, invite.org_id, userId) : undefined,
      holdsEmailSlot(db, invite),
    ]);
    const accepted: InviteRecord = { ...invite, status: 'accepted', accepted_at: timestamp, accepted_by: userId, updated_at: timestamp };
    const next: Membership = {
      org_id: invite.org_id,
      user_id: userId,
      email: user?.email ?? invite.email,
      display_name: user?.display_name ?? principal.name ?? invite.email.split('@')[0],
      role: invite.role,
      status: 'active',
      member_since: membership?.status === 'active' ? membership.member_since : timestamp,
      created_at: membership?.created_at ?? timestamp,
      updated_at: timestamp,
      recording_count: membership?.recording_count ?? 0,
      latest_recording_at: membership?.latest_recording_at ?? null,
    };
    const newUser: User | undefined = user
      ? undefined
      : {
          user_id: userId,
          email: invite.email,
          display_name: next.display_name,
          timezone: DEFAULT_TIMEZONE,
          created_at: timestamp,
          updated_at: timestamp,
        };
    // The accepting user is the actor, also when this acceptance creates them.
    const context = { correlationId: currentChangeContext()?.correlationId ?? null, actor: { kind: 'user' as const, id: userId } };
    await withChangeContext(context, () =>
      commitInviteAcceptance(db, {
        accepted,
        readTokenHash: hash,
        releasesEmailGuard,
        newUser: newUser && { user: newUser, identity: { issuer: principal.issuer, subject: principal.subject } },
        membership: next,
        // A membership that exists (pending, removed, or active with another role) is taken over as read.
        membershipExpected: membership ? { status: membership.status } : 'absent',
        joinsActiveMembers: membership?.status !== 'active',
      }),
    );
    return { org_id: invite.org_id, role: invite.role, status: 'active' as const };
  });
}
export function checkAcceptable(invite: InviteRecord, now: Date, principal: IdTokenPrincipal): void {
  if (invite.status === 'revoked') throw new ApiError(410, 'INVITE_REVOKED', 'This invitation was revoked.');
  if (invite.status === 'accepted') throw new ConflictError('INVITE_ALREADY_ACCEPTED', 'This invitation was already accepted.');
  if (statusOf(invite, now) === 'expired') throw new ApiError(410, 'INVITE_EXPIRED', 'This invitation has expired; ask for a new one.');
  if (!principal.emailVerified || principal.email !== invite.email) {
    throw new ForbiddenError('INVITE_EMAIL_MISMATCH', 'This invitation was sent to another email address than your verified one.');
  }
}
