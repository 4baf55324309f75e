import { updateActionItem } from '../../shared/domain/summaries/update-action-item';
import { summaryView } from '../../shared/domain/summaries/summary-views';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateActionItemRoute } from '../../shared/routes/summaries/update-action-item';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** PATCH /api/v1/organization/{orgId}/recordings/{recordingId}/summaries/{summaryId}/action-items/{itemId} */
export const handler = apiHandler(updateActionItemRoute, async ({ caller, path, body }) => {
  const summary = await updateActionItem(summaryDeps(), caller, path.recordingId, path.summaryId, path.itemId, body.completed);
  return json(200, summaryView(summary));
});
