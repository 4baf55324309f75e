import { listInvites } from '../../shared/domain/invites/list-invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listInvitesRoute } from '../../shared/routes/invites/list-invites';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** GET /api/v1/organization/{orgId}/invites?status=&page=&limit= (sends no email, so it bundles no SES client) */
export const handler = apiHandler(listInvitesRoute, async ({ caller, query }) => {
  const { data, pagination } = await listInvites(inviteDeps(), caller.orgId, query);
  return json(200, { invites: data, pagination });
});
