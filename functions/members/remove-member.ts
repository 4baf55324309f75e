import { removeMember } from '../../shared/domain/members/remove-member';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { countMetric } from '../../shared/observability/metrics';
import { removeMemberRoute } from '../../shared/routes/members/remove-member';
import { memberDeps } from '../../shared/wiring/member-deps';

/** DELETE /api/v1/organization/{orgId}/users/{userId}: remove a member, or leave. */
export const handler = apiHandler(removeMemberRoute, async ({ caller, path }) => {
  const removed = await removeMember(memberDeps(), caller, path.userId);
  countMetric('MembersRemoved');
  return envelope(removed);
});
