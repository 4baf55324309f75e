import { inviteDeps } from '../../shared/domain/invites/invite-deps';
import { resendInvite } from '../../shared/domain/invites/invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';

/** POST /api/v1/organization/{orgId}/invites/{inviteId}/resend */
export const handler = apiHandler('resendInvite', async ({ caller, path }) => {
  await resendInvite(inviteDeps(), caller, path.inviteId);
  return json(200, { success: true });
});
