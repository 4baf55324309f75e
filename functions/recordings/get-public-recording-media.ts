import { config } from '../../shared/config';
import { recordingMedia } from '../../shared/domain/recordings/recording-media';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getPublicRecordingMediaRoute } from '../../shared/routes/public-recordings/get-public-recording-media';
import { table } from '../../shared/storage/dynamo';
import { recordingObjects } from '../../shared/storage/recording-objects';

/** GET /api/v1/public/recordings/{recordingId}/media?download=true|false (a personal key: its user's own recordings) */
export const handler = apiHandler(getPublicRecordingMediaRoute, async ({ caller, path, query }) => {
  const deps = { db: table(), objects: recordingObjects(), now: () => new Date(), urlTtlSeconds: config().media.urlTtlSeconds };
  const media = await recordingMedia(deps, caller, path.recordingId, query.download === 'true' ? 'attachment' : 'inline');
  return envelope(media);
});
