import { randomBytes } from 'node:crypto';
import type { Delivery } from '../../events/event-consumer';
import type { Actor, DomainEvent } from '../../schemas/event-catalog';
import { mailErrorCode, type MailErrorCode, type Mailer } from '../../mail/mailer';
import type { TableContext } from '../../storage/dynamo';
import type { EmailDelivery, InviteRecord } from '../../storage/invite-items';
import { getInvite } from '../../storage/invites';
import { commitEmailDelivery } from '../../storage/invite-writes';
import { commitInvitationToken } from '../../storage/invite-writes';
import { getOrganization } from '../../storage/organizations';
import { WriteConflict } from '../../storage/transactions';
import { getUser } from '../../storage/users';
import { invitationEmail } from './invite-email';
import { statusOf } from './invite-views';
import { hashInviteToken } from './invite-tokens';

/** What the invitation mail consumer needs: the table, a mailer, a clock and where accept links point. */
export interface InvitationMailDeps {
  db: TableContext;
  mail: Mailer;
  now: () => Date;
  settings: { appUrl: string };
}

/** Why a delivery of an invite.created / invite.resent event sent nothing. */
export type SkipReason =
  /** The invite is gone from the table (expired long ago and removed by TTL). */
  | 'gone'
  /** Accepted, revoked or expired: nobody should get a link to it now. */
  | 'not_pending'
  /** The invite was resent since this event: the invite.resent event's delivery sends that send's email. */
  | 'superseded'
  /** This send's email already left, or was given up on (a redelivered event). */
  | 'already_delivered'
  /** Another delivery of the same email got its token in first and is sending it (its last delivery only; before, it retries). */
  | 'in_progress';

/** What one delivery of an invitation mail event did. */
export type InvitationMailOutcome =
  | { outcome: 'sent'; attempts: number }
  | { outcome: 'failed'; attempts: number; error: MailErrorCode }
  | { outcome: 'skipped'; reason: SkipReason };

/** Thrown (so the queue delivers the event again later) while another delivery of the same email is sending it. */
export class DeliveryInProgress extends Error {
  override readonly name = 'DeliveryInProgress';
}

/**
 * Sends the invitation email of the send an invite.created or invite.resent event is about,
 * and records its delivery on the invite (email_status, email_sent_at, email_attempts,
 * email_last_error). Secrets are stored only as hashes and events carry no token, so each
 * attempt makes the link's token: it commits the new token's hash (only while the invite is
 * still pending, at the same send, its email still queued), then sends the email.
 *
 * Idempotent by event: an invite whose email for this send already left (or failed for
 * good), that was resent since, or is no longer pending, is left alone. A mail failure
 * records the attempt and its error code and throws (the queue retries) — except on the
 * last delivery, which records `failed` and returns (invite.email_failed follows).
 *
 * If SES accepted an email but the attempt ended before recording it, the retry sends a
 * second email whose link replaces the first one's.
 */
export async function sendInvitationEmail(
  deps: InvitationMailDeps,
  event: DomainEvent,
  delivery: Delivery,
): Promise<InvitationMailOutcome> {
  const { db } = deps;
  const read = () => getInvite(db, event.org_id, event.resource.id, { consistent: true });
  const invite = await read();
  if (!invite) return skipped('gone');
  const skip = skipReason(invite, event, deps.now());
  if (skip) return skipped(skip);

  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashInviteToken(token);
  try {
    await commitInvitationToken(db, { invite, tokenHash });
  } catch (error) {
    if (!(error instanceof WriteConflict)) throw error;
    // The invite changed between the read and the write: decide again on what it is now.
    const reason = skipReason(await read(), event, deps.now());
    if (reason) return skipped(reason);
    // Still queued for this send: another delivery of this email wrote its token first and is sending it.
    if (delivery.last) return skipped('in_progress');
    throw new DeliveryInProgress(`Invitation ${invite.id}: another delivery of its email is in progress`);
  }

  const attempts = invite.delivery.attempts + 1;
  try {
    await deps.mail(await emailFor(deps, invite, event.actor, token));
  } catch (error) {
    const code = mailErrorCode(error);
    const outcome: EmailDelivery = { status: delivery.last ? 'failed' : 'queued', sent_at: null, attempts, last_error: code };
    // Not recorded: the invite was resent meanwhile (or another delivery took over), which records its own.
    if (!(await record(db, invite, tokenHash, outcome))) return skipped('superseded');
    if (delivery.last) return { outcome: 'failed', attempts, error: code };
    throw error;
  }
  await record(db, invite, tokenHash, { status: 'sent', sent_at: deps.now().toISOString(), attempts, last_error: null });
  return { outcome: 'sent', attempts };
}

/**
 * Why this event's delivery should send nothing, or undefined when it should send. The
 * event names its send by the expiry it set (`data.expires_at`: a resend sets a new one); an
 * invite.created event is superseded by any resend.
 */
function skipReason(invite: InviteRecord | undefined, event: DomainEvent, now: Date): SkipReason | undefined {
  if (!invite) return 'gone';
  if (statusOf(invite, now) !== 'pending') return 'not_pending';
  const eventExpiry = event.data.expires_at;
  if (
    (event.type === 'invite.created' && invite.resent_at !== undefined) ||
    (typeof eventExpiry === 'string' && eventExpiry !== invite.expires_at)
  ) {
    return 'superseded';
  }
  if (invite.delivery.status !== 'queued') return 'already_delivered';
  return undefined;
}

const skipped = (reason: SkipReason): InvitationMailOutcome => ({ outcome: 'skipped', reason });

/** Records the delivery; false when the invite no longer has this attempt's token (resent, or another attempt took over). */
async function record(db: TableContext, invite: InviteRecord, tokenHash: string, delivery: EmailDelivery): Promise<boolean> {
  try {
    await commitEmailDelivery(db, { invite, tokenHash, delivery });
    return true;
  } catch (error) {
    if (error instanceof WriteConflict) return false;
    throw error;
  }
}

const acceptLink = (appUrl: string, token: string) => `${appUrl}/invites/accept?token=${encodeURIComponent(token)}`;

/** The email, naming the organization and who sent (or resent) the invitation: the event's actor. */
async function emailFor(deps: InvitationMailDeps, invite: InviteRecord, actor: Actor | null, token: string) {
  const [org, inviter] = await Promise.all([getOrganization(deps.db, invite.org_id), inviterName(deps.db, actor)]);
  return invitationEmail({
    to: invite.email,
    orgName: org?.name ?? invite.org_id,
    inviterName: inviter,
    role: invite.role,
    link: acceptLink(deps.settings.appUrl, token),
    expiresAt: invite.expires_at,
  });
}

/** A member by their display name; an organization key (or the service) as "An administrator". */
async function inviterName(db: TableContext, actor: Actor | null): Promise<string> {
  if (actor?.kind !== 'user') return 'An administrator';
  return (await getUser(db, actor.id))?.display_name ?? 'An administrator';
}
