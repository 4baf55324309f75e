import { acceptInviteDocs, acceptInviteRoute } from './accept-invite';
import { listInvitesDocs, listInvitesRoute } from './list-invites';
import { resendInviteDocs, resendInviteRoute } from './resend-invite';
import { revokeInviteDocs, revokeInviteRoute } from './revoke-invite';
import { sendInviteDocs, sendInviteRoute } from './send-invite';

/** Invitations by email, and their acceptance. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const INVITES_ROUTES = [
  { route: sendInviteRoute, docs: sendInviteDocs },
  { route: listInvitesRoute, docs: listInvitesDocs },
  { route: revokeInviteRoute, docs: revokeInviteDocs },
  { route: resendInviteRoute, docs: resendInviteDocs },
  { route: acceptInviteRoute, docs: acceptInviteDocs },
] as const;
