import { listSummaries } from '../../shared/domain/summaries/list-summaries';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listSummariesRoute } from '../../shared/routes/summaries/list-summaries';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId}/summaries */
export const handler = apiHandler(listSummariesRoute, async ({ caller, path }) => {
  const summaries = await listSummaries(summaryDeps(), caller, path.recordingId);
  return json(200, { summaries: summaries.map(summaryView) });
});
