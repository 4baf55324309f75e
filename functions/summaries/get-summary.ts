import { getSummary } from '../../shared/domain/summaries/get-summary';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getSummaryRoute } from '../../shared/routes/summaries/get-summary';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId} */
export const handler = apiHandler(getSummaryRoute, async ({ caller, path }) => {
  return json(200, summaryView(await getSummary(summaryDeps(), caller, path.recordingId, path.summaryId)));
});
