import { recordingView } from '../../shared/domain/recordings/recording-views';
import { getRecording } from '../../shared/domain/recordings/get-recording';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getRecordingRoute } from '../../shared/routes/recordings/get-recording';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId} */
export const handler = apiHandler(getRecordingRoute, async ({ caller, path, query }) => {
  const include = query.include ?? [];
  const { recording, parts, hold, speakers } = await getRecording(recordingDeps().db, caller.orgId, path.recordingId, include);
  return json(200, recordingView(recording, parts, include, hold, speakers));
});
