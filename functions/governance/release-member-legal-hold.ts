import { releaseMemberHold } from '../../shared/domain/governance/legal-holds';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { releaseMemberLegalHoldRoute } from '../../shared/routes/governance/release-member-legal-hold';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** DELETE /api/v1/organization/{orgId}/users/{userId}/legal-hold */
export const handler = apiHandler(releaseMemberLegalHoldRoute, async ({ caller, path }) => {
  await releaseMemberHold(recordingDeps(), caller, path.userId);
  return json(200, { success: true });
});
