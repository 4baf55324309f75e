import { acceptInviteDocs, acceptInviteRoute } from './accept-invite';
import { listInvitesDocs, listInvitesRoute } from './list-invites';
import { resendInviteDocs, resendInviteRoute } from './resend-invite';
import { revokeInviteDocs, revokeInviteRoute } from './revoke-invite';
import { sendInviteDocs, sendInviteRoute } from './send-invite';
import { defineRouteArea } from '../route-definition';

/** Invitations by email, and their acceptance. */
export const INVITES_ROUTES = defineRouteArea({
  area: 'invites',
  stack: 'invites',
  routes: [
    { route: sendInviteRoute, docs: sendInviteDocs },
    { route: listInvitesRoute, docs: listInvitesDocs },
    { route: revokeInviteRoute, docs: revokeInviteDocs },
    { route: resendInviteRoute, docs: resendInviteDocs },
    { route: acceptInviteRoute, docs: acceptInviteDocs },
  ],
});
