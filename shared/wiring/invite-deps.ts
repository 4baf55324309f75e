import { config } from '../config';
import type { InvitationMailDeps } from '../domain/invites/send-invitation-email';
import type { InviteDeps } from '../domain/invites/invite-changes';
import { mailer } from '../mail/mailer';
import { table } from '../storage/dynamo';

/**
 * The invitations area's composition root, built from config on first use and kept for the warm
 * function. The invite routes only commit (no mailer: their bundles carry no SES client); the
 * invitation mail consumer sends.
 */

let invites: InviteDeps | undefined;
let mail: InvitationMailDeps | undefined;

/** The table, the clock and how long a link works: sending, listing, revoking, resending and accepting invitations. */
export function inviteDeps(): InviteDeps {
  return (invites ??= { db: table(), now: () => new Date(), settings: { ttlSeconds: config().invites.ttlSeconds } });
}

/** The invitation mail consumer's: the mailer (the SES client, created once) and the app's URL for the link. */
export function invitationMailDeps(): InvitationMailDeps {
  return (mail ??= { db: table(), mail: mailer(), now: () => new Date(), settings: { appUrl: config().invites.appUrl } });
}
