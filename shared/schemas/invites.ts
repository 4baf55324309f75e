import * as v from 'valibot';
import { integerParam } from '../http/validation';
import { Email, RoleName } from './common';

export const SendInviteBody = v.strictObject({
  email: Email,
  role: v.optional(RoleName, 'member'),
});

export const AcceptInviteBody = v.strictObject({
  token: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
});

export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const ListInvitesQuery = v.strictObject({
  status: v.optional(v.picklist(INVITE_STATUSES, `must be one of ${INVITE_STATUSES.join(', ')}`)),
  page: integerParam({ defaultValue: 1, min: 1 }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100 }),
});
