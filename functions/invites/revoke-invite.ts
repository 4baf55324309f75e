import { revokeInvite } from '../../shared/domain/invites/revoke-invite';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { revokeInviteRoute } from '../../shared/routes/invites/revoke-invite';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** DELETE /api/v1/organization/{orgId}/invites/{inviteId} (sends no email, so it bundles no SES client) */
export const handler = apiHandler(revokeInviteRoute, async ({ caller, path }) => {
  await revokeInvite(inviteDeps(), caller.orgId, path.inviteId);
  return json(200, { success: true });
});
