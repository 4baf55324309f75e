import type { MemberCaller, OrgKeyCaller } from '../../auth/policy';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { actorOf } from '../../events/actor';
import { newId } from '../../ids';
import type { Erasure } from '../../schemas/erasures';
import type { TableContext } from '../../storage/dynamo';
import type { ErasureRecord } from '../../storage/erasure-items';
import { getErasure, insertErasure, runningErasureId } from '../../storage/erasures';
import { findOtherActiveOwner, getMembership } from '../../storage/memberships';
import { WriteConflict } from '../../storage/transactions';
import { getUser } from '../../storage/users';
import { memberUnderHold } from '../governance/hold-checks';
import { erasureView } from './erasure-views';

export interface StartErasureDeps {
  db: TableContext;
  now: () => Date;
}

/** Who may erase a member: an owner (the route admits no other role) or an org key with governance:write. */
export type ErasureCaller = MemberCaller | OrgKeyCaller;

/**
 * Erase member: checks the confirmation and the refusals, then queues the erasure (the
 * erasure and its guard in one transaction; the job runs off the request, on the erasure's
 * `user.erasure_requested` event). A member whose erasure runs gets that erasure back,
 * whoever asks. A former member (membership `removed`) can be erased too.
 */
export async function startMemberErasure(deps: StartErasureDeps, caller: ErasureCaller, userId: string, confirm: string): Promise<Erasure> {
  const { db } = deps;
  const orgId = caller.orgId;
  const [membership, running] = await Promise.all([
    getMembership(db, orgId, userId, { consistent: true }),
    runningErasureId(db, orgId, userId),
  ]);
  // Once the job removed the membership, the user item (if any) still knows the address.
  const email = membership?.email ?? (running ? (await getUser(db, userId))?.email : undefined);
  if (email !== undefined && confirm.trim().toLowerCase() !== email.toLowerCase())
    throw new ValidationError("confirm is not the member's email address.", 'INVALID_CONFIRMATION', [
      { field: 'confirm', issue: 'invalid_value', message: "is not the member's email address" },
    ]);
  if (running) return erasureView(await runningErasure(db, orgId, running));
  if (!membership) throw new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not a member of this organization.`);
  if (membership.status === 'active' && membership.role === 'owner' && !(await findOtherActiveOwner(db, orgId, userId)))
    throw new ConflictError('LAST_OWNER', `User ${userId} is the organization's last active owner: make another member an owner first.`);
  const hold = await memberUnderHold(db, orgId, userId);
  if (hold) {
    const what = hold.recording_id ? `Their recording ${hold.recording_id} is` : 'They are';
    throw new ConflictError(
      'LEGAL_HOLD',
      `${what} under a legal hold, placed by ${hold.placed_by} at ${hold.placed_at} (reason: ${hold.reason}). Release the hold first.`,
    );
  }
  const now = deps.now().toISOString();
  const erasure: ErasureRecord = {
    id: newId('era'),
    org_id: orgId,
    user_id: userId,
    status: 'queued',
    step: FIRST_STEP,
    counts: {},
    requested_by: actorOf(caller),
    created_at: now,
    updated_at: now,
    completed_at: null,
    error: null,
    in_progress: [],
  };
  try {
    await insertErasure(db, erasure);
    return erasureView(erasure);
  } catch (error) {
    // Another request queued one in the meantime: that one is the member's erasure.
    if (!(error instanceof WriteConflict && error.failedAt('guard'))) throw error;
    const other = await runningErasureId(db, orgId, userId);
    if (!other) throw error;
    return erasureView(await runningErasure(db, orgId, other));
  }
}

/** The step a new erasure starts at (run-member-erasure.ts lists them all). */
export const FIRST_STEP = 'recordings';

async function runningErasure(db: TableContext, orgId: string, erasureId: string): Promise<ErasureRecord> {
  const erasure = await getErasure(db, orgId, erasureId, { consistent: true });
  if (!erasure) throw new Error(`The erasure guard names ${erasureId}, which does not exist`);
  return erasure;
}
