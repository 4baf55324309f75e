import type { DomainEvent } from '../../schemas/event-catalog';
import { withChangeContext } from '../../storage/change-stamp';
import { rearmTrashTimer } from '../../storage/recording-writes';
import { getRecording } from '../../storage/recordings';
import { WriteConflict } from '../../storage/transactions';
import { commitPermanentDelete, retryUntilCommitted } from './recording-changes';
import { purgeAt, type TrashDeps } from './recording-trash';

/** What the trash retention did with a recording whose timer ran out. */
export type RetentionOutcome =
  /** Deleted for good, as a permanent delete does. */
  | 'deleted'
  /** Gone, restored or otherwise out of the trash: nothing to do. */
  | 'not_in_trash'
  /** Still in the trash but not yet for the retention (it was raised since the timer was set): the timer is set again. */
  | 'not_due';

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
    const purge = purgeAt(deletedAt, deps.trashRetentionDays);
    if (Date.parse(purge) > deps.now().getTime()) {
      try {
        await rearmTrashTimer(db, { org_id: current.org_id, recording_id: current.id, deleted_at: deletedAt, purge_at: purge });
      } catch (error) {
        // Restored or trashed again since it was read: that change set or removed its own timer.
        // (A mere concurrent transaction is a conflict too, which `retryUntilCommitted` plans again.)
        if (error instanceof WriteConflict && error.failedAt('recording')) return 'not_in_trash';
        throw error;
      }
      return 'not_due';
    }
    await withChangeContext({ actor: null, correlationId: due.correlation_id, reason: 'retention' }, () =>
      commitPermanentDelete(deps, current, { kind: 'stored', stillIn: 'TRASH', unchangedSince: current.updated_at }),
    );
    return 'deleted';
  });
}
