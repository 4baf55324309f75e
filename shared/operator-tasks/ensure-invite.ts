import { ConflictError, NotFoundError } from '../core/errors';
import type { Fixture } from '../schemas/fixture';
import type { TableContext } from '../storage/dynamo';
import { QUEUED_DELIVERY, type InviteRecord } from '../storage/invite-items';
import { getInvite } from '../storage/invites';
import { commitInviteSending } from '../storage/invite-writes';
import { getMembership } from '../storage/memberships';
import { getOrganization } from '../storage/organizations';
import { WriteConflict } from '../storage/transactions';
import { findUserIdByEmail } from '../storage/users';
import type { EnsureOutcome } from './directory';

/** How long a fixture's invitation stays pending unless it says: the API's default (INVITE_TTL_SECONDS). */
const FIXTURE_INVITE_TTL_MS = 7 * 86_400_000;
/** Who a fixture's invitation is recorded as sent by: no member sent it. */
export const FIXTURE_INVITER = 'fixture';

/**
 * A fixture's pending invitation: created once, through the same transaction as Send invite
 * (the invite and its email's pending slot), so the invitation mail consumer emails it with
 * its accept link. An invite whose id exists is left as it is, whatever became of it (accepted,
 * revoked, expired), so loading a fixture again changes nothing. Refused like Send invite: an
 * active member's email (ALREADY_MEMBER), an email with another pending invite (INVITE_PENDING).
 */
export async function ensureInvite(db: TableContext, input: Fixture['invites'][number], now: Date): Promise<EnsureOutcome> {
  if (await getInvite(db, input.org_id, input.id)) return 'unchanged';
  if (!(await getOrganization(db, input.org_id))) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${input.org_id} does not exist.`);
  const userId = await findUserIdByEmail(db, input.email);
  if (userId && (await getMembership(db, input.org_id, userId))?.status === 'active') {
    throw new ConflictError('ALREADY_MEMBER', `Invite ${input.id}: ${input.email} is already a member of ${input.org_id}.`);
  }
  const timestamp = now.toISOString();
  const invite: InviteRecord = {
    id: input.id,
    org_id: input.org_id,
    email: input.email,
    role: input.role,
    status: 'pending',
    created_at: timestamp,
    updated_at: timestamp,
    expires_at: input.expires_at ?? new Date(now.getTime() + FIXTURE_INVITE_TTL_MS).toISOString(),
    invited_by: FIXTURE_INVITER,
    delivery: QUEUED_DELIVERY,
  };
  try {
    await commitInviteSending(db, { invite, slotFreeAt: timestamp });
  } catch (error) {
    if (!(error instanceof WriteConflict)) throw error;
    // Created meanwhile by another load of the same fixture: as if it had been there.
    if (error.failedAt('invite') && (await getInvite(db, input.org_id, input.id))) return 'unchanged';
    if (error.failedAt('emailGuard'))
      throw new ConflictError('INVITE_PENDING', `Invite ${input.id}: ${input.email} already has a pending invitation to ${input.org_id}.`);
    throw error;
  }
  return 'created';
}
