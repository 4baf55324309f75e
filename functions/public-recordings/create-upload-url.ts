import { createUploadUrl } from '../../shared/domain/recordings/create-upload-url';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { createUploadUrlRoute } from '../../shared/routes/public-recordings/create-upload-url';
import { uploadDeps } from '../../shared/wiring/recording-deps';

/** POST /api/v1/public/recordings/upload-url */
export const handler = idempotentApiHandler(createUploadUrlRoute, async ({ caller, body }) => {
  const upload = await createUploadUrl(uploadDeps(), caller, body);
  return envelope(upload, undefined, 201);
});
