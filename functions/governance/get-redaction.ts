import { getRedaction } from '../../shared/domain/transcript-settings/redaction';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getRedactionRoute } from '../../shared/routes/governance/get-redaction';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/redaction */
export const handler = apiHandler(getRedactionRoute, async ({ caller }) => json(200, await getRedaction(recordingDeps(), caller.orgId)));
