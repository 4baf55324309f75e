import { createSummary } from '../../shared/domain/summaries/create-summary';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { createSummaryRoute } from '../../shared/routes/summaries/create-summary';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** POST /api/v1/organization/{orgId}/recordings/{recordingId}/summaries */
export const handler = idempotentApiHandler(createSummaryRoute, async ({ caller, path, body }) => {
  const summary = await createSummary(summaryDeps(), caller, path.recordingId, body);
  return json(202, summaryView(summary));
});
