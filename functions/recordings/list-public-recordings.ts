import { listPublicRecordings } from '../../shared/domain/recordings/public-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/public/recordings */
export const handler = apiHandler('listPublicRecordings', async ({ caller, query }) => {
  const { data, pagination } = await listPublicRecordings(table(), caller, query);
  return envelope(data, pagination);
});
