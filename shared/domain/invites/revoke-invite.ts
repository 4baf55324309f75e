import type { InviteRecord } from '../../storage/invite-items';
import { commitInviteRevocation } from '../../storage/invite-writes';
import { InviteDeps, committed, readInvite, notPending, holdsEmailSlot } from './invite-changes';

/** Revokes a pending invite: its link stops working at once. */
export async function revokeInvite(deps: Pick<InviteDeps, 'db' | 'now'>, orgId: string, inviteId: string): Promise<void> {
  const { db } = deps;
  // Accepted or revoked meanwhile, or its slot changed hands: the fresh read of the next attempt says what to do.
  await committed(async (attempt) => {
    const invite = await readInvite(db, orgId, inviteId, attempt);
    const now = deps.now();
    if (invite.status !== 'pending') throw notPending(invite, now);
    const revoked: InviteRecord = { ...invite, status: 'revoked', revoked_at: now.toISOString(), updated_at: now.toISOString() };
    await commitInviteRevocation(db, { revoked, releasesEmailGuard: await holdsEmailSlot(db, invite) });
  });
}
