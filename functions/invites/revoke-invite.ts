import { inviteDeps } from '../../shared/domain/invites/invite-deps';
import { revokeInvite } from '../../shared/domain/invites/invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';

/** DELETE /api/v1/organization/{orgId}/invites/{inviteId} */
export const handler = apiHandler('revokeInvite', async ({ caller, path }) => {
  await revokeInvite(inviteDeps(), caller.orgId, path.inviteId!);
  return json(200, { success: true });
});
