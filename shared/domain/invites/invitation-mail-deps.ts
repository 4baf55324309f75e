import { config } from '../../config';
import { mailer } from '../../mail/mailer';
import { table } from '../../storage/dynamo';
import type { InvitationMailDeps } from './invitation-mail';

/** The invitation mail consumer's dependencies, from config (the SES client is created once per module). */
export function invitationMailDeps(): InvitationMailDeps {
  return { db: table(), mail: mailer(), now: () => new Date(), settings: { appUrl: config().invites.appUrl } };
}
