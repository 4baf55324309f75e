import { config } from '../../shared/config';
import { recordingMedia } from '../../shared/domain/recordings/recording-media';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getRecordingMediaRoute } from '../../shared/routes/recordings/get-recording-media';
import { table } from '../../shared/storage/dynamo';
import { recordingObjects } from '../../shared/storage/recording-objects';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId}/media?download=true|false */
export const handler = apiHandler(getRecordingMediaRoute, async ({ caller, path, query }) => {
  const deps = { db: table(), objects: recordingObjects(), now: () => new Date(), urlTtlSeconds: config().media.urlTtlSeconds };
  const media = await recordingMedia(deps, caller, path.recordingId, query.download === 'true' ? 'attachment' : 'inline');
  return json(200, media);
});
