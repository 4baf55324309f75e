import { deleteSummary } from '../../shared/domain/summaries/delete-summary';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { deleteSummaryRoute } from '../../shared/routes/summaries/delete-summary';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** DELETE /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId} */
export const handler = apiHandler(deleteSummaryRoute, async ({ caller, path }) => {
  await deleteSummary(summaryDeps(), caller, path.recordingId, path.summaryId);
  return json(200, { success: true });
});
