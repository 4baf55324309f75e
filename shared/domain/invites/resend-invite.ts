import type { Caller } from '../../auth/policy';
import { ConflictError } from '../../core/errors';
import { type InviteRecord, QUEUED_DELIVERY } from '../../storage/invite-items';
import { commitInviteRenewal } from '../../storage/invite-writes';
import { WriteConflict } from '../../storage/transactions';
import { InviteDeps, committed, readInvite, notPending, expiryFrom } from './invite-changes';

/**
 * Sends a pending invite again (also one that expired, or whose email failed): a new send
 * with a new expiry, its email queued anew. The link emailed before stops working at once;
 * the invitation mail consumer emails a new one from the invite.resent event.
 */
export async function resendInvite(deps: InviteDeps, caller: Caller, inviteId: string): Promise<void> {
  const { db } = deps;
  await committed(async (attempt) => {
    const invite = await readInvite(db, caller.orgId, inviteId, attempt);
    const now = deps.now();
    if (invite.status !== 'pending') throw notPending(invite, now);
    const { token_hash: _previous, ...unchanged } = invite;
    const renewed: InviteRecord = {
      ...unchanged,
      expires_at: expiryFrom(now, deps.settings),
      updated_at: now.toISOString(),
      resent_at: now.toISOString(),
      delivery: QUEUED_DELIVERY,
    };
    try {
      // The invite keeps its email's pending slot, or takes it back if it is free or expired by now.
      await commitInviteRenewal(db, { renewed, previousTokenHash: invite.token_hash, slotFreeAt: now.toISOString() });
    } catch (error) {
      // A newer invite holds the slot: final. The invite no longer pending (accepted or revoked
      // meanwhile), or a concurrent resend's transaction: planned again on a fresh read, so a
      // resend that lost to another resend sends once more, and never reports a pending
      // invite as not pending.
      if (error instanceof WriteConflict && error.failedAt('emailGuard') && !error.failedAt('invite')) {
        throw new ConflictError('INVITE_PENDING', `${invite.email} has a newer pending invitation.`);
      }
      throw error;
    }
  });
}
