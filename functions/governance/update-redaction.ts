import { updateRedaction } from '../../shared/domain/transcript-settings/redaction';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateRedactionRoute } from '../../shared/routes/governance/update-redaction';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/redaction */
export const handler = apiHandler(updateRedactionRoute, async ({ caller, body }) =>
  json(200, await updateRedaction(recordingDeps(), caller, body)),
);
