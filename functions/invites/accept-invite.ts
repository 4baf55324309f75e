import { acceptInvite } from '../../shared/domain/invites/accept-invite';
import { keyedOrglessHandler } from '../../shared/http/keyed-handlers';
import { json } from '../../shared/http/responses';
import { acceptInviteRoute } from '../../shared/routes/invites/accept-invite';
import { inviteDeps } from '../../shared/wiring/invite-deps';

/** POST /api/v1/organization/invites/accept (an ID token; the organization comes from the invite) */
export const handler = keyedOrglessHandler(acceptInviteRoute, async ({ principal, body }) => {
  return json(200, await acceptInvite(inviteDeps(), principal, body.token));
});
