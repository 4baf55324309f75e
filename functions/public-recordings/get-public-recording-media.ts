import { getRecordingMedia } from '../../shared/domain/recordings/get-recording-media';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getPublicRecordingMediaRoute } from '../../shared/routes/public-recordings/get-public-recording-media';
import { recordingMediaDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/public/recordings/{recordingId}/media?download=true|false (a personal key: its user's own recordings) */
export const handler = apiHandler(getPublicRecordingMediaRoute, async ({ caller, path, query }) => {
  const media = await getRecordingMedia(
    recordingMediaDeps(),
    caller,
    path.recordingId,
    query.download === 'true' ? 'attachment' : 'inline',
  );
  return envelope(media);
});
