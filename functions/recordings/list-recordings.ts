import { listOrganizationRecordings } from '../../shared/domain/recordings/list-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { ListRecordingsQuery } from '../../shared/schemas/recordings';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/recordings */
export const handler = apiHandler('listRecordings', async ({ caller, query }) => {
  const list = await listOrganizationRecordings(table(), caller, parseInput(ListRecordingsQuery, query), query.page !== undefined);
  return json(200, list);
});
