import type { Caller } from '../../auth/policy';
import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import { getMemberHold, putMemberHold, releaseMemberHoldItem, setRecordingHold } from '../../storage/legal-holds';
import type { MemberLegalHold } from '../../storage/legal-hold-items';
import { getMembership } from '../../storage/memberships';
import type { LegalHold, Recording } from '../../storage/recording-items';
import { holdView, type EffectiveHold } from './hold-checks';
import { getRecording } from '../../storage/recordings';
import { recordingNotFound } from '../recordings/get-recording';
import { retryUntilCommitted } from '../recordings/recording-changes';

/**
 * Legal holds (docs/governance.md): a hold on one recording, or on every recording a member
 * recorded, now and later. While a recording is held, deleting it (to the trash or for good), the
 * trash's purge, retention and erasure all refuse or skip it. Nothing else changes.
 */
export interface LegalHoldDeps {
  db: TableContext;
  now: () => Date;
}

/** A recording of the organization, live or in the trash (a hold stops the trash's purge too). */
async function readAnyRecording(db: TableContext, orgId: string, recordingId: string): Promise<Recording> {
  const recording = await getRecording(db, orgId, recordingId, { consistent: true });
  if (!recording) throw recordingNotFound(recordingId);
  return recording;
}

/**
 * Places a hold on a recording, or changes the reason of the one it has (who placed it and when
 * stay the first placement's). Answers the hold.
 */
export async function placeRecordingHold(deps: LegalHoldDeps, caller: Caller, recordingId: string, reason: string): Promise<EffectiveHold> {
  return retryUntilCommitted(async () => {
    const recording = await readAnyRecording(deps.db, caller.orgId, recordingId);
    const existing = recording.legal_hold;
    if (existing?.reason === reason) return holdView(existing, 'recording');
    const now = deps.now().toISOString();
    const hold: LegalHold = existing ? { ...existing, reason } : { reason, placed_by: caller.actor, placed_at: now };
    await setRecordingHold(deps.db, recording, hold, now);
    return holdView(hold, 'recording');
  });
}

/** Releases a recording's hold (a recording without one is left as it is). */
export async function releaseRecordingHold(deps: LegalHoldDeps, caller: Caller, recordingId: string): Promise<void> {
  await retryUntilCommitted(async () => {
    const recording = await readAnyRecording(deps.db, caller.orgId, recordingId);
    if (!recording.legal_hold) return;
    await setRecordingHold(deps.db, recording, null, deps.now().toISOString());
  });
}

/** The user must be or have been a member of the organization (a removed member's recordings can be held). */
async function assertMember(db: TableContext, orgId: string, userId: string): Promise<void> {
  if (!(await getMembership(db, orgId, userId)))
    throw new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not a member of this organization.`);
}

/** Places a hold on every recording a member recorded, now and later; a second PUT changes its reason only. */
export async function placeMemberHold(deps: LegalHoldDeps, caller: Caller, userId: string, reason: string): Promise<EffectiveHold> {
  await assertMember(deps.db, caller.orgId, userId);
  const existing = await getMemberHold(deps.db, caller.orgId, userId);
  if (existing?.reason === reason) return holdView(existing, 'member');
  const hold: MemberLegalHold = existing
    ? { ...existing, reason }
    : { org_id: caller.orgId, user_id: userId, reason, placed_by: caller.actor, placed_at: deps.now().toISOString() };
  await putMemberHold(deps.db, hold);
  return holdView(hold, 'member');
}

export async function releaseMemberHold(deps: LegalHoldDeps, caller: Caller, userId: string): Promise<void> {
  await assertMember(deps.db, caller.orgId, userId);
  await releaseMemberHoldItem(deps.db, caller.orgId, userId, deps.now().toISOString());
}
