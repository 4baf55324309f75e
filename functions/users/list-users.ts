import { listUsers } from '../../shared/domain/members/list-users';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { listUsersRoute } from '../../shared/routes/users/list-users';
import { memberDeps } from '../../shared/wiring/member-deps';

/** GET /api/v1/organization/{orgId}/users and its alias GET /api/v1/public/users. */
export const handler = apiHandler(listUsersRoute, async ({ caller, query }) => {
  const { members, pagination } = await listUsers(memberDeps().db, caller.orgId, query);
  return envelope(members, pagination);
});
