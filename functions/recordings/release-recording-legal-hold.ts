import { releaseRecordingHold } from '../../shared/domain/governance/legal-holds';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { releaseRecordingLegalHoldRoute } from '../../shared/routes/recordings/release-recording-legal-hold';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** DELETE /api/v1/organization/{orgId}/recordings/{recordingId}/legal-hold */
export const handler = apiHandler(releaseRecordingLegalHoldRoute, async ({ caller, path }) => {
  await releaseRecordingHold(recordingDeps(), caller, path.recordingId);
  return json(200, { success: true });
});
