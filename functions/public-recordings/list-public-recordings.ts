import { listPublicRecordings } from '../../shared/domain/recordings/list-public-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { listPublicRecordingsRoute } from '../../shared/routes/public-recordings/list-public-recordings';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/public/recordings */
export const handler = apiHandler(listPublicRecordingsRoute, async ({ caller, query }) => {
  const { data, pagination } = await listPublicRecordings(recordingDeps().db, caller, query);
  return envelope(data, pagination);
});
