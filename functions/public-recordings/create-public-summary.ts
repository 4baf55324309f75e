import { createSummary } from '../../shared/domain/summaries/create-summary';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { createPublicSummaryRoute } from '../../shared/routes/public-recordings/create-public-summary';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** POST /api/v1/public/recordings/{recordingId}/summaries (a personal key: its member's own recordings) */
export const handler = idempotentApiHandler(createPublicSummaryRoute, async ({ caller, path, body }) => {
  const summary = await createSummary(summaryDeps(), caller, path.recordingId, body);
  return envelope(summaryView(summary), undefined, 202);
});
