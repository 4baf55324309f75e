import { deleteRecordingPermanently } from '../../shared/domain/recordings/recording-changes';
import { softDeleteRecording } from '../../shared/domain/recordings/recording-trash';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { deleteRecordingRoute } from '../../shared/routes/recordings/delete-recording';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/**
 * DELETE /api/v1/organization/{orgId}/recordings/{recordingId}?permanent=true|false
 * A permanent delete is one transaction: the object cleanup consumer removes the recording's
 * related items and files after it commits, so this function has no access to the bucket.
 */
export const handler = apiHandler(deleteRecordingRoute, async ({ caller, path, query }) => {
  if (query.permanent === 'true') {
    await deleteRecordingPermanently(recordingDeps(), caller.orgId, path.recordingId);
  } else {
    await softDeleteRecording(recordingDeps(), caller.orgId, path.recordingId);
  }
  return json(200, { success: true });
});
