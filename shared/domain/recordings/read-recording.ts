import { NotFoundError } from '../../core/errors';
import type { TableContext } from '../../storage/dynamo';
import type { Recording } from '../../storage/recording-items';
import type { RecordingParts } from '../../storage/recording-part-items';
import { getRecording, getRecordingWithParts } from '../../storage/recordings';

/** 404 RECORDING_NOT_FOUND: unknown, another organization's, or (for live reads) in the trash. */
export function recordingNotFound(recordingId: string): NotFoundError {
  return new NotFoundError('RECORDING_NOT_FOUND', `Recording ${recordingId} does not exist in this organization.`);
}

/**
 * A live recording of the organization, with its related items when asked: one GetItem,
 * or one Query over the recording's key range (recording and related items together).
 * Unknown, trashed and other organizations' recordings are all 404 RECORDING_NOT_FOUND.
 */
export async function readLiveRecording(db: TableContext, orgId: string, recordingId: string, withParts = false): Promise<{ recording: Recording; parts: RecordingParts }> {
  const { recording, parts } = withParts
    ? await getRecordingWithParts(db, orgId, recordingId)
    : { recording: await getRecording(db, orgId, recordingId), parts: {} };
  if (!recording || recording.deleted_at) throw recordingNotFound(recordingId);
  return { recording, parts };
}
