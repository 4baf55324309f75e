import type { Recording } from '../../storage/recording-items';
import { commitRecordingChange } from '../../storage/recording-writes';
import { readLiveRecording } from './get-recording';
import { RecordingDeps, assertOrgTags, retryUntilCommitted, planRecordingChange } from './recording-changes';

/** Changes title, description and tags of a live recording; tag links follow in the same transaction. */
export async function updateRecording(
  deps: RecordingDeps,
  orgId: string,
  recordingId: string,
  changes: { title?: string; description?: string; tags?: string[] },
): Promise<Recording> {
  const { db } = deps;
  if (changes.tags) await assertOrgTags(db, orgId, changes.tags, 'tags');
  return retryUntilCommitted(async () => {
    const { recording: current } = await readLiveRecording(db, orgId, recordingId);
    const next: Recording = { ...current, ...changes, updated_at: deps.now().toISOString() };
    await commitRecordingChange(
      db,
      planRecordingChange({
        before: current,
        after: next,
        relies: { kind: 'stored', stillIn: 'LIVE', unchangedSince: current.updated_at },
      }),
    );
    return next;
  });
}
