import { inviteDeps } from '../../shared/domain/invites/invite-deps';
import { listOrganizationInvites } from '../../shared/domain/invites/invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { ListInvitesQuery } from '../../shared/schemas/invites';

/** GET /api/v1/organization/{orgId}/invites?status=&page=&limit= */
export const handler = apiHandler('listInvites', async ({ caller, query }) => {
  const { data, pagination } = await listOrganizationInvites(inviteDeps(), caller.orgId, parseInput(ListInvitesQuery, query));
  return json(200, { invites: data, pagination });
});
