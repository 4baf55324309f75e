import { getRetention } from '../../shared/domain/governance/retention';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getRetentionRoute } from '../../shared/routes/governance/get-retention';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/retention */
export const handler = apiHandler(getRetentionRoute, async ({ caller }) => json(200, await getRetention(recordingDeps(), caller.orgId)));
