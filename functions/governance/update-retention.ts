import { updateRetention } from '../../shared/domain/governance/retention';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateRetentionRoute } from '../../shared/routes/governance/update-retention';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/retention */
export const handler = apiHandler(updateRetentionRoute, async ({ caller, body }) =>
  json(200, await updateRetention(recordingDeps(), caller, body.recordings_days)),
);
