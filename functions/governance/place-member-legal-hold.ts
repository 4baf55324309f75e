import { placeMemberHold } from '../../shared/domain/governance/legal-holds';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { placeMemberLegalHoldRoute } from '../../shared/routes/governance/place-member-legal-hold';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/users/{userId}/legal-hold */
export const handler = apiHandler(placeMemberLegalHoldRoute, async ({ caller, path, body }) =>
  envelope(await placeMemberHold(recordingDeps(), caller, path.userId, body.reason)),
);
