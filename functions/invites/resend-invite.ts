import { resendInvite } from '../../shared/domain/invites/resend-invite';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { resendInviteRoute } from '../../shared/routes/invites/resend-invite';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** POST /api/v1/organization/{orgId}/invites/{inviteId}/resend */
export const handler = idempotentApiHandler(resendInviteRoute, async ({ caller, path }) => {
  await resendInvite(inviteDeps(), caller, path.inviteId);
  return json(200, { success: true });
});
