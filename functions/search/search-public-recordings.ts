import { searchRecordings } from '../../shared/domain/search/search-recordings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { searchPublicRecordingsRoute } from '../../shared/routes/search/search-public-recordings';
import { searchDeps } from '../../shared/wiring/search-deps';

/** GET /api/v1/public/search (a personal key: its member's own recordings) */
export const handler = apiHandler(searchPublicRecordingsRoute, async ({ caller, query }) =>
  envelope(await searchRecordings(searchDeps(), caller, query)),
);
