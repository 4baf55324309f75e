import { NotFoundError } from '../../core/errors';
import { getMembership } from '../../storage/memberships';
import type { Recording } from '../../storage/recording-items';
import { commitRecordingChange } from '../../storage/recording-writes';
import { getRecording } from '../../storage/recordings';
import { type RecordingDeps, retryUntilCommitted, planRecordingChange } from './recording-changes';

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
