import type { InviteRecord } from '../../storage/invite-items';

/** A stored status, with pending invites past expires_at reported as expired. */
export function statusOf(invite: InviteRecord, now: Date): InviteStatus {
  return invite.status === 'pending' && Date.parse(invite.expires_at) <= now.getTime() ? 'expired' : invite.status;
}

/**
 * The Invite resource of the spec, with the delivery of its invitation email (of the
 * current send: a resend starts it over).
 */
export function inviteView(invite: InviteRecord, now: Date) {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    status: statusOf(invite, now),
    created_at: invite.created_at,
    expires_at: invite.expires_at,
    email_status: invite.delivery.status,
    email_sent_at: invite.delivery.sent_at,
    email_attempts: invite.delivery.attempts,
    email_last_error: invite.delivery.last_error,
  };
}
export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';
