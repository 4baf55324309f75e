import { ConflictError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import { getMemberHold, listLegalHolds } from '../../storage/legal-holds';
import type { LegalHold, Recording } from '../../storage/recording-items';

/**
 * What a legal hold keeps (docs/governance.md), as every delete, the trash's purge, retention,
 * erasure and Get recording ask it. Placing and releasing holds: legal-holds.ts.
 */

/** The hold as the API shows it: the recording's own, else its recorder's (`scope` says which). */
export type EffectiveHold = LegalHold & { scope: 'recording' | 'member' };

export function holdView(hold: LegalHold, scope: EffectiveHold['scope']): EffectiveHold {
  return { reason: hold.reason, placed_by: hold.placed_by, placed_at: hold.placed_at, scope };
}

/** What holds a recording: its own hold, else its recorder's; null when nothing does. */
export async function effectiveHold(db: TableContext, recording: Recording): Promise<EffectiveHold | null> {
  if (recording.legal_hold) return holdView(recording.legal_hold, 'recording');
  const memberHold = await getMemberHold(db, recording.org_id, recording.recorded_by);
  return memberHold ? holdView(memberHold, 'member') : null;
}

export function legalHoldRefusal(subject: string, hold: EffectiveHold): ConflictError {
  const by = hold.scope === 'member' ? "its recorder's legal hold" : 'a legal hold';
  return new ConflictError(
    'LEGAL_HOLD',
    `${subject} is under ${by}, placed by ${hold.placed_by} at ${hold.placed_at} (reason: ${hold.reason}). Release the hold first.`,
  );
}

/** Refuses (409 LEGAL_HOLD, naming the hold) when the recording is held. */
export async function assertNotHeld(db: TableContext, recording: Recording): Promise<void> {
  const hold = await effectiveHold(db, recording);
  if (hold) throw legalHoldRefusal(`Recording ${recording.id}`, hold);
}

/**
 * Whether anything of a member is held in the organization: their own hold, else the first of
 * their recordings held (with its id). One GetItem and one Query of the organization's holds.
 */
export async function memberUnderHold(
  db: TableContext,
  orgId: string,
  userId: string,
): Promise<(LegalHold & { recording_id?: string }) | null> {
  const own = await getMemberHold(db, orgId, userId);
  if (own) return { reason: own.reason, placed_by: own.placed_by, placed_at: own.placed_at };
  const held = (await listLegalHolds(db, orgId)).recordings.find((entry) => entry.recorded_by === userId);
  return held ? { reason: held.reason, placed_by: held.placed_by, placed_at: held.placed_at, recording_id: held.recording_id } : null;
}
