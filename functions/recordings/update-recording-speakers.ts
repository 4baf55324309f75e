import { renameSpeakers } from '../../shared/domain/speakers/rename-speakers';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateRecordingSpeakersRoute } from '../../shared/routes/recordings/update-recording-speakers';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PATCH /api/v1/organization/{orgId}/recordings/{recordingId}/speakers */
export const handler = apiHandler(updateRecordingSpeakersRoute, async ({ caller, path, body }) => {
  const { speakers } = await renameSpeakers(recordingDeps(), caller, path.recordingId, body);
  return json(200, { recording_id: path.recordingId, speakers });
});
