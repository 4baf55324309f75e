import { ROLES, type Role } from '../core/access';
import { EMAIL_STATUSES } from '../schemas/invites';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';

/* Invites as items: types, item builders and the explicit mappers, with no DynamoDB client (the event processor maps items and bundles none). */

/** Stored invite states; `expired` is derived (pending past expires_at). */
export const STORED_INVITE_STATUSES = ['pending', 'accepted', 'revoked'] as const;

export type StoredInviteStatus = (typeof STORED_INVITE_STATUSES)[number];

/** Where the invitation email of the invite's current send is (see EMAIL_STATUSES). */
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * The delivery of the invitation email of the invite's current send (the first one, or the
 * latest resend, which starts it over). The invitation mail consumer writes it.
 */
export interface EmailDelivery {
  status: EmailStatus;
  /** When the email left (SES accepted it); null while it has not. */
  sent_at: string | null;
  /** Tries to send this send's email so far. */
  attempts: number;
  /** The code of the last failed try (a MailErrorCode); null when none, or once the email left. */
  last_error: string | null;
}

/** A new send's delivery: nothing tried yet. */
export const QUEUED_DELIVERY: EmailDelivery = { status: 'queued', sent_at: null, attempts: 0, last_error: null };

/**
 * How an invite stored before deliveries were recorded reads: its email was sent inline by
 * the request that sent (or resent) it, once, at a moment nobody wrote down.
 */
export const LEGACY_DELIVERY: EmailDelivery = { status: 'sent', sent_at: null, attempts: 1, last_error: null };

export interface InviteRecord {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  status: StoredInviteStatus;
  created_at: string;
  updated_at: string;
  expires_at: string;
  invited_by: string;
  /**
   * SHA-256 of the token of the link last emailed. Absent until the invitation mail consumer
   * first tries to send the email, and again after a resend (until its email is tried).
   */
  token_hash?: string;
  /** When the invite was last resent: each resend is a new send, with an email of its own. */
  resent_at?: string;
  delivery: EmailDelivery;
  accepted_at?: string;
  accepted_by?: string;
  revoked_at?: string;
}

/** The one-pending-invite-per-email guard of an organization: which invite holds the email, until when. */
export interface InviteEmailGuard {
  invite_id: string;
  expires_at: string;
}

/** Epoch seconds for the TTL attribute: DynamoDB removes the item some time after. */
export const ttlOf = (isoTimestamp: string) => ({ [TABLE.ttlAttribute]: Math.floor(Date.parse(isoTimestamp) / 1000) });

/** The stored attributes of an email delivery (flat, so that conditions and the stream read them directly). */
export function deliveryAttributes(delivery: EmailDelivery) {
  return {
    email_status: delivery.status,
    email_sent_at: delivery.sent_at,
    email_attempts: delivery.attempts,
    email_last_error: delivery.last_error,
  };
}

/** The invite item; pending and revoked invites expire from the table, accepted ones stay. */
export function inviteItem(invite: InviteRecord) {
  const { delivery, ...fields } = invite;
  return {
    ...keys.invite(invite.org_id, invite.id),
    ...keys.invitesIndex(invite.org_id, invite.created_at, invite.id),
    ...fields,
    ...deliveryAttributes(delivery),
    ...(invite.status === 'accepted' ? {} : ttlOf(invite.expires_at)),
    ...changeStamp(),
  };
}

/** The lookup from the hash of an invite's current token to the invite; it expires with the invite. */
export function tokenItem(invite: Pick<InviteRecord, 'id' | 'org_id' | 'expires_at'>, tokenHash: string) {
  return { ...keys.inviteToken(tokenHash), org_id: invite.org_id, invite_id: invite.id, ...ttlOf(invite.expires_at) };
}

/** The guard that holds the invite's email for it while it is pending (see InviteEmailGuard). */
export function emailGuardItem(invite: InviteRecord) {
  return {
    ...keys.inviteEmailGuard(invite.org_id, invite.email),
    invite_id: invite.id,
    expires_at: invite.expires_at,
    ...ttlOf(invite.expires_at),
  };
}

/**
 * Reads a stored invite; acceptance and revocation fields exist only once they happened, the
 * token hash once a token was emailed. An invite without delivery attributes was stored
 * before they were recorded and reads as LEGACY_DELIVERY.
 */
export function inviteFromItem(item: Record<string, unknown>): InviteRecord {
  const field = itemFields(item, 'invite');
  const delivery: EmailDelivery =
    item.email_status === undefined
      ? LEGACY_DELIVERY
      : {
          status: field.oneOf('email_status', EMAIL_STATUSES),
          sent_at: field.nullableString('email_sent_at'),
          attempts: field.number('email_attempts'),
          last_error: field.nullableString('email_last_error'),
        };
  return {
    id: field.string('id'),
    org_id: field.string('org_id'),
    email: field.string('email'),
    role: field.oneOf('role', ROLES),
    status: field.oneOf('status', STORED_INVITE_STATUSES),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    expires_at: field.string('expires_at'),
    invited_by: field.string('invited_by'),
    token_hash: field.optionalString('token_hash'),
    resent_at: field.optionalString('resent_at'),
    delivery,
    accepted_at: field.optionalString('accepted_at'),
    accepted_by: field.optionalString('accepted_by'),
    revoked_at: field.optionalString('revoked_at'),
  };
}

export function emailGuardFromItem(item: Record<string, unknown>): InviteEmailGuard {
  const field = itemFields(item, 'invite email guard');
  return { invite_id: field.string('invite_id'), expires_at: field.string('expires_at') };
}
