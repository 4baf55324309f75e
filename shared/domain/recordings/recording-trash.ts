import { NotFoundError } from '../../core/errors';
import { getMembership } from '../../storage/memberships';
import { commitRecordingChange } from '../../storage/recording-writes';
import type { Recording } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import { readLiveRecording } from './read-recording';
import { planRecordingChange, recorderLeaving, retryUntilCommitted, type RecordingDeps } from './recording-changes';

/** What moving recordings to the trash needs besides: how long the trash keeps them (TRASH_RETENTION_DAYS). */
export interface TrashDeps extends RecordingDeps {
  trashRetentionDays: number;
}

/** When a recording trashed at `deletedAt` is due to be deleted for good. */
export function purgeAt(deletedAt: string, trashRetentionDays: number): string {
  return new Date(Date.parse(deletedAt) + trashRetentionDays * 86_400_000).toISOString();
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

/**
 * Brings a recording back from the trash, with its data, tag links and counts; its trash
 * timer goes in the same transaction. Conditioned, like the trash, on the recording as read
 * (an upload completing meanwhile is re-read, not undone).
 */
export async function restoreRecording(deps: RecordingDeps, orgId: string, recordingId: string): Promise<Recording> {
  const { db } = deps;
  return retryUntilCommitted(async () => {
    const current = await getRecording(db, orgId, recordingId);
    if (!current?.deleted_at)
      throw new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} is not in this organization's trash.`);
    const membership = await getMembership(db, orgId, current.recorded_by);
    // Out of the trash: neither when it was trashed nor when it would have been purged.
    const { deleted_at: _deletedAt, purge_at: _purgeAt, ...rest } = current;
    const restored: Recording = { ...rest, updated_at: deps.now().toISOString() };
    const recorder = membership && { membership };
    await commitRecordingChange(
      db,
      planRecordingChange({
        before: current,
        after: restored,
        relies: { kind: 'stored', stillIn: 'TRASH', unchangedSince: current.updated_at },
        recorder,
      }),
    );
    return restored;
  });
}
