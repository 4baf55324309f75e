import { listPublicRecordings } from '../../shared/domain/recordings/public-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { listPublicRecordingsRoute } from '../../shared/routes/public-recordings/list-public-recordings';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/public/recordings */
export const handler = apiHandler(listPublicRecordingsRoute, async ({ caller, query }) => {
  const { data, pagination } = await listPublicRecordings(table(), caller, query);
  return envelope(data, pagination);
});
