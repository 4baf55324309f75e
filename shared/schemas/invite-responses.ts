import * as v from 'valibot';
import { createdAt, described, PagePagination, TIMESTAMP } from './envelopes';
import { EMAIL_STATUSES } from './invites';

/** Invitations as the API answers them, and what accepting one answers, for the OpenAPI document and the contract check. */

/**
 * The Invite resource's email delivery fields (of its current send: a resend starts them
 * over), added to the spec's Invite later. Invitations stored before then read as sent.
 */
export const InviteEmailDeliveryFields = {
  email_status: v.pipe(
    v.picklist(EMAIL_STATUSES),
    v.description(
      'The invitation email of the current send (the first, or the latest resend): `queued` until it leaves (tried again after a failure), `sent` once the mail service accepted it, `failed` after the last try. Invitations sent before this field existed read as `sent`.',
    ),
  ),
  email_sent_at: v.pipe(
    v.nullable(v.string()),
    v.description('When the email left; null until then, and for invitations sent before this field existed.'),
  ),
  email_attempts: v.pipe(v.number(), v.description('Tries to send the email of the current send so far (0 while none was made).')),
  email_last_error: v.pipe(
    v.nullable(v.string()),
    v.description(
      'Why the last try failed, as a code: `MAIL_REJECTED` (the mail service refused this email) or `MAIL_UNAVAILABLE` (it could not be reached; tried again). Null when no try failed, and once the email was sent.',
    ),
  ),
};

export const Invite = v.strictObject({
  id: described(v.string(), "The invitation's id."),
  email: described(v.string(), 'Who is invited (lower case).'),
  role: described(v.string(), 'The role they get on accepting: owner, admin, member or viewer.'),
  status: described(
    v.picklist(['pending', 'accepted', 'revoked', 'expired']),
    '`pending` until accepted or revoked; `expired` once `expires_at` has passed while pending.',
  ),
  created_at: createdAt('invitation'),
  expires_at: described(
    v.string(),
    `When the link stops working (${TIMESTAMP}; INVITE_TTL_SECONDS after the latest send, 7 days by default).`,
  ),
  ...InviteEmailDeliveryFields,
});
export const InviteListResponse = v.strictObject({
  invites: described(v.array(Invite), "This page of the organization's invitations, newest first."),
  pagination: described(PagePagination, 'Where this page is in the list.'),
});
export const AcceptInviteResponse = v.strictObject({
  org_id: described(v.string(), 'The organization joined.'),
  role: described(v.string(), "The role held in it: the invitation's."),
  status: described(v.literal('active'), 'The membership status: always `active`.'),
});
