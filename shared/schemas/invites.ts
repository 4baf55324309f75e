import * as v from 'valibot';
import { integerParam } from './validation';
import { Email, RoleName } from './common';

export const SendInviteBody = v.strictObject({
  email: v.pipe(
    Email,
    v.description(
      'Who to invite: the invitation email goes there, and only a user whose verified email it is may accept. Stored lower case.',
    ),
  ),
  role: v.pipe(
    v.optional(RoleName, 'member'),
    v.description('The role they get on accepting: owner (only an owner may invite one), admin, member (the default) or viewer.'),
  ),
});

export const AcceptInviteBody = v.strictObject({
  token: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(200, 'must be at most 200 characters'),
    v.description(
      "The token of the invitation link (`…/invites/accept?token=…`) emailed to the invited person; only the latest send's link works.",
    ),
  ),
});

export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const ListInvitesQuery = v.strictObject({
  status: v.pipe(
    v.optional(v.picklist(INVITE_STATUSES, `must be one of ${INVITE_STATUSES.join(', ')}`)),
    v.description('Only invitations in this state; all when absent.'),
  ),
  page: integerParam({ defaultValue: 1, min: 1, description: 'The page to return, 1-based.' }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100, description: 'Invitations per page.' }),
});

/** Where an invitation's email is: waiting to leave (or to be tried again), left, or given up on after the last try. */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
