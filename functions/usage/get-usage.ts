import { getUsage } from '../../shared/domain/transcription/get-usage';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getUsageRoute } from '../../shared/routes/usage/get-usage';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** GET /api/v1/organization/{orgId}/usage?month=YYYY-MM */
export const handler = apiHandler(getUsageRoute, async ({ caller, query }) =>
  json(200, await getUsage(transcriptionDeps(), caller.orgId, query)),
);
