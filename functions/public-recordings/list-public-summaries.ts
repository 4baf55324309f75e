import { listSummaries } from '../../shared/domain/summaries/list-summaries';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { listPublicSummariesRoute } from '../../shared/routes/public-recordings/list-public-summaries';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** GET /api/v1/public/recordings/{recordingId}/summaries (a personal key: its member's own recordings) */
export const handler = apiHandler(listPublicSummariesRoute, async ({ caller, path }) => {
  const summaries = await listSummaries(summaryDeps(), caller, path.recordingId);
  return envelope({ summaries: summaries.map(summaryView) });
});
