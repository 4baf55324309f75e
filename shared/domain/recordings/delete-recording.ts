import { commitRecordingChange } from '../../storage/recording-writes';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { assertNotHeld } from '../governance/hold-checks';
import { readLiveRecording, recordingNotFound } from './get-recording';
import { RecordingDeps, retryUntilCommitted, commitPermanentDelete, recorderLeaving, planRecordingChange } from './recording-changes';
import { TrashDeps, purgeAt } from './recording-trash';

/**
 * Removes a recording for good, live or trashed: one transaction takes it, its tag links and
 * its counts, and writes its tombstone. No S3 call and no related item on the request path:
 * the tombstone's `recording.deleted` event has the object cleanup consumer remove them.
 * A held recording is refused (409 LEGAL_HOLD); a hold placed meanwhile restamps the recording,
 * so the delete's condition fails and the next attempt reads the hold.
 */
export async function deleteRecordingPermanently(deps: RecordingDeps, orgId: string, recordingId: string): Promise<void> {
  let found = false;
  await retryUntilCommitted(async () => {
    const current = await getRecording(deps.db, orgId, recordingId);
    if (!current) {
      if (found) return; // a concurrent delete finished the job
      throw recordingNotFound(recordingId);
    }
    found = true;
    await assertNotHeld(deps.db, current);
    await commitPermanentDelete(deps, current, { kind: 'stored', unchangedSince: current.updated_at });
  });
}

/**
 * Moves a live recording to the trash: hidden from lists and counts, data kept. Its trash
 * timer, in the same transaction, runs out after the retention (TRASH_RETENTION_DAYS).
 * The whole recording is stored again from the read, so the write holds only while it is
 * unchanged since: an update or upload completion landing meanwhile is re-read, not undone.
 */
export async function softDeleteRecording(deps: TrashDeps, orgId: string, recordingId: string): Promise<void> {
  const { db } = deps;
  await retryUntilCommitted(async () => {
    const { recording: current } = await readLiveRecording(db, orgId, recordingId);
    await assertNotHeld(db, current);
    const now = deps.now().toISOString();
    const trashed: Recording = { ...current, deleted_at: now, updated_at: now };
    const recorder = await recorderLeaving(db, current);
    const purge = purgeAt(now, deps.trashRetentionDays);
    await commitRecordingChange(
      db,
      planRecordingChange({
        before: current,
        after: trashed,
        relies: { kind: 'stored', stillIn: 'LIVE', unchangedSince: current.updated_at },
        recorder,
        purgeAt: purge,
      }),
    );
  });
}

/** Delete recording: to the trash, or (`permanent`) for good. */
export async function deleteRecording(deps: TrashDeps, orgId: string, recordingId: string, options: { permanent: boolean }): Promise<void> {
  if (options.permanent) await deleteRecordingPermanently(deps, orgId, recordingId);
  else await softDeleteRecording(deps, orgId, recordingId);
}
