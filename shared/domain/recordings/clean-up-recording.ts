import type { DomainEvent } from '../../schemas/event-catalog';
import type { TableContext } from '../../storage/dynamo';
import { recordingObjectPrefix, type RecordingObjects } from '../../storage/recording-objects';
import { deleteRelatedItems } from '../../storage/recordings';

export interface CleanupDeps {
  db: TableContext;
  objects: Pick<RecordingObjects, 'deletePrefix'>;
}

/** What a cleanup removed; all zero when an earlier delivery already did it. */
export interface CleanupOutcome {
  relatedItems: number;
  objects: number;
  uploadsAborted: number;
  /** A recording with this id exists again (a fixture reloaded): nothing of it was touched. */
  skipped: boolean;
}

/**
 * Removes what a permanently deleted recording left behind (object cleanup consumer, on
 * `recording.deleted`): its related items (summary, action items, translation, transcript
 * header and chunks) and every object under `recordings/<org>/<recording>/`, unfinished
 * multipart uploads included. Idempotent, so a redelivered event finds nothing left and
 * succeeds; any failure throws, and the queue delivers the event again.
 */
export async function cleanUpRecording(
  deps: CleanupDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'resource'>,
): Promise<CleanupOutcome> {
  if (event.type !== 'recording.deleted' || event.resource.type !== 'recording') {
    throw new Error(`The object cleanup handles recording.deleted only, not ${event.type} of a ${event.resource.type}`);
  }
  const { org_id: orgId, resource } = event;
  const items = await deleteRelatedItems(deps.db, orgId, resource.id);
  if (items.recordingExists) {
    return { relatedItems: 0, objects: 0, uploadsAborted: 0, skipped: true };
  }
  const removed = await deps.objects.deletePrefix(recordingObjectPrefix(orgId, resource.id));
  return { relatedItems: items.deleted, objects: removed.objects, uploadsAborted: removed.uploadsAborted, skipped: false };
}
