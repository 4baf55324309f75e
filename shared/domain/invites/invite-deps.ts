import { config } from '../../config';
import { table } from '../../storage/dynamo';
import type { InviteDeps } from './invites';

/**
 * The invite functions' dependencies, from config (built on first use, kept per module). No
 * mailer: the send and resend functions only commit, so their bundles carry no SES client.
 */
export function inviteDeps(): InviteDeps {
  return { db: table(), now: () => new Date(), settings: { ttlSeconds: config().invites.ttlSeconds } };
}
