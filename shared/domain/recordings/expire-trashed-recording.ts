import type { DomainEvent } from '../../schemas/event-catalog';
import { withChangeContext } from '../../storage/change-stamp';
import { rearmTrashTimer } from '../../storage/recording-writes';
import { getRecording } from '../../storage/recordings';
import { WriteConflict } from '../../storage/transactions';
import { commitPermanentDelete, retryUntilCommitted } from './recording-changes';
import { purgeAt, type TrashDeps } from './recording-trash';
import { effectiveHold } from '../governance/hold-checks';

/** What the trash retention did with a recording whose timer ran out. */
export type RetentionOutcome =
  /** Deleted for good, as a permanent delete does. */
  | 'deleted'
  /** Gone, restored or otherwise out of the trash: nothing to do. */
  | 'not_in_trash'
  /** Still in the trash but not yet for the retention (it was raised since the timer was set): the timer is set again. */
  | 'not_due'
  /** Under a legal hold: kept, and its timer set again a day later, so the purge follows the hold's release. */
  | 'held';

/** How long a held recording's purge waits before it looks at the hold again. */
const HELD_RECHECK_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes a recording whose trash timer ran out, once it is sure it should: the recording
 * must still be in the trash (a restore racing the timer wins: the delete is conditioned on
 * the recording as read, still in the trash) and have been there for the retention by `now`.
 * The delete is the manual permanent delete's, in a change context naming no actor and the
 * reason 'retention', so `recording.deleted` says the service deleted it and why.
 */
export async function expireTrashedRecording(
  deps: TrashDeps,
  due: Pick<DomainEvent, 'type' | 'org_id' | 'resource' | 'correlation_id'>,
): Promise<RetentionOutcome> {
  if (due.type !== 'recording.retention_due' || due.resource.type !== 'recording') {
    throw new Error(`The trash retention handles recording.retention_due only, not ${due.type} of a ${due.resource.type}`);
  }
  const { db } = deps;
  return retryUntilCommitted(async (): Promise<RetentionOutcome> => {
    const current = await getRecording(db, due.org_id, due.resource.id, { consistent: true });
    const deletedAt = current?.deleted_at;
    if (!current || !deletedAt) return 'not_in_trash';
    const dueAt = purgeAt(deletedAt, deps.trashRetentionDays);
    const held = Date.parse(dueAt) <= deps.now().getTime() && (await effectiveHold(db, current)) !== null;
    const purge = held ? new Date(deps.now().getTime() + HELD_RECHECK_MS).toISOString() : dueAt;
    if (Date.parse(purge) > deps.now().getTime()) {
      try {
        await rearmTrashTimer(db, { org_id: current.org_id, recording_id: current.id, deleted_at: deletedAt, purge_at: purge });
      } catch (error) {
        // Restored or trashed again since it was read: that change set or removed its own timer.
        // (A mere concurrent transaction is a conflict too, which `retryUntilCommitted` plans again.)
        if (error instanceof WriteConflict && error.failedAt('recording')) return 'not_in_trash';
        throw error;
      }
      return held ? 'held' : 'not_due';
    }
    await withChangeContext({ actor: null, correlationId: due.correlation_id, reason: 'retention' }, () =>
      commitPermanentDelete(deps, current, { kind: 'stored', stillIn: 'TRASH', unchangedSince: current.updated_at }),
    );
    return 'deleted';
  });
}
