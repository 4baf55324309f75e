import { renameSpeakers } from '../../shared/domain/speakers/rename-speakers';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { updatePublicRecordingSpeakersRoute } from '../../shared/routes/public-recordings/update-public-recording-speakers';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PATCH /api/v1/public/recordings/{recordingId}/speakers (a personal key: its member's own recordings) */
export const handler = apiHandler(updatePublicRecordingSpeakersRoute, async ({ caller, path, body }) => {
  const { speakers } = await renameSpeakers(recordingDeps(), caller, path.recordingId, body);
  return envelope({ recording_id: path.recordingId, speakers });
});
