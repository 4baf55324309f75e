import { getRecordingMedia } from '../../shared/domain/recordings/get-recording-media';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getRecordingMediaRoute } from '../../shared/routes/recordings/get-recording-media';
import { recordingMediaDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId}/media?download=true|false */
export const handler = apiHandler(getRecordingMediaRoute, async ({ caller, path, query }) => {
  const media = await getRecordingMedia(
    recordingMediaDeps(),
    caller,
    path.recordingId,
    query.download === 'true' ? 'attachment' : 'inline',
  );
  return json(200, media);
});
