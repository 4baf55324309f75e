import { updateRecording } from '../../shared/domain/recordings/update-recording';
import { updatedView } from '../../shared/domain/recordings/recording-views';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateRecordingRoute } from '../../shared/routes/recordings/update-recording';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/recordings/{recordingId} */
export const handler = apiHandler(updateRecordingRoute, async ({ caller, path, body }) => {
  const recording = await updateRecording(recordingDeps(), caller.orgId, path.recordingId, body);
  return json(200, updatedView(recording));
});
