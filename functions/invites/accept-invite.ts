import { acceptInvite } from '../../shared/domain/invites/accept-invite';
import { idempotentOrglessHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { acceptInviteRoute } from '../../shared/routes/invites/accept-invite';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** POST /api/v1/organization/invites/accept (an ID token; the organization comes from the invite) */
export const handler = idempotentOrglessHandler(acceptInviteRoute, async ({ principal, body }) => {
  return json(200, await acceptInvite(inviteDeps(), principal, body.token));
});
