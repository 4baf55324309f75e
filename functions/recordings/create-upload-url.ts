import { config } from '../../shared/config';
import { createUpload } from '../../shared/domain/recordings/create-upload';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { createUploadUrlRoute } from '../../shared/routes/public-recordings/create-upload-url';
import { table } from '../../shared/storage/dynamo';
import { recordingObjects } from '../../shared/storage/recording-objects';

/** POST /api/v1/public/recordings/upload-url */
export const handler = apiHandler(createUploadUrlRoute, async ({ caller, body }) => {
  const upload = await createUpload({ db: table(), objects: recordingObjects(), now: () => new Date(), uploads: config().uploads }, caller, body);
  return envelope(upload, undefined, 201);
});
