import { updateMember } from '../../shared/domain/members/update-member';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { updateMemberRoute } from '../../shared/routes/members/update-member';
import { memberDeps } from '../../shared/wiring/member-deps';

/** PATCH /api/v1/organization/{orgId}/users/{userId} */
export const handler = apiHandler(updateMemberRoute, async ({ caller, path, body }) => {
  return envelope(await updateMember(memberDeps(), caller, path.userId, body.role));
});
