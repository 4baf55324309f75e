import { sendInvite } from '../../shared/domain/invites/send-invite';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { sendInviteRoute } from '../../shared/routes/invites/send-invite';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** POST /api/v1/organization/{orgId}/invites */
export const handler = idempotentApiHandler(sendInviteRoute, async ({ caller, body }) => {
  return json(201, await sendInvite(inviteDeps(), caller, body));
});
