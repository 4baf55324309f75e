import { deleteRecording } from '../../shared/domain/recordings/delete-recording';
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
  await deleteRecording(recordingDeps(), caller.orgId, path.recordingId, { permanent: query.permanent === 'true' });
  return json(200, { success: true });
});
