import { placeRecordingHold } from '../../shared/domain/governance/legal-holds';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { placeRecordingLegalHoldRoute } from '../../shared/routes/recordings/place-recording-legal-hold';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold */
export const handler = apiHandler(placeRecordingLegalHoldRoute, async ({ caller, path, body }) =>
  json(200, await placeRecordingHold(recordingDeps(), caller, path.recordingId, body.reason)),
);
