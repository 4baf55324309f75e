import { searchRecordings } from '../../shared/domain/search/search-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { searchRecordingsRoute } from '../../shared/routes/search/search-recordings';
import { searchDeps } from '../../shared/wiring/search-deps';

/** GET /api/v1/organization/{orgId}/search */
export const handler = apiHandler(searchRecordingsRoute, async ({ caller, query }) =>
  json(200, await searchRecordings(searchDeps(), caller, query)),
);
