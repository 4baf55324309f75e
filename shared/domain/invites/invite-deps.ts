import { config } from '../../config';
import { mailer } from '../../mail/mailer';
import { table } from '../../storage/dynamo';
import type { InviteDeps } from './invites';

/** The invite functions' dependencies, from config (built on first use, kept per module). */
export function inviteDeps(): InviteDeps {
  const { invites } = config();
  return { db: table(), mail: mailer(), now: () => new Date(), settings: { appUrl: invites.appUrl, ttlSeconds: invites.ttlSeconds } };
}
