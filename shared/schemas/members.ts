import * as v from 'valibot';
import { integerParam } from './validation';
import { RoleName } from './common';

/** Query of List users (both the organization route and the public alias). */
export const ListUsersQuery = v.strictObject({
  q: v.pipe(
    v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'must be at most 200 characters'))),
    v.description('Only members whose email or display name contains this text, ignoring case; at most 200 characters.'),
  ),
  page: integerParam({ defaultValue: 1, min: 1, description: 'The page to return, 1-based.' }),
  limit: integerParam({ defaultValue: 25, min: 1, max: 100, description: 'Members per page.' }),
});
export type ListUsersQuery = v.InferOutput<typeof ListUsersQuery>;

const text = (description: string) => v.pipe(v.string(), v.description(description));

/** A member as List users returns it. */
export const Member = v.object({
  user_id: text("The member's user id."),
  email: text("The member's email (lower case)."),
  display_name: text("The member's name as shown."),
  role: v.pipe(
    v.picklist(['owner', 'admin', 'member', 'viewer']),
    v.description('Their role in the organization, from most to least powerful: owner, admin, member, viewer.'),
  ),
  status: text('The membership status: `active` in lists; `removed` in the answer of Remove member.'),
  is_active: v.pipe(v.boolean(), v.description('Whether the membership is active.')),
  created_at: text('When the membership was created (ISO 8601 UTC, with milliseconds).'),
  updated_at: text('When the membership last changed (ISO 8601 UTC, with milliseconds).'),
  member_since: text('When they (last) joined the organization (ISO 8601 UTC, with milliseconds).'),
  recording_count: v.pipe(v.number(), v.description('How many live recordings they recorded in the organization (the trash not counted).')),
  latest_recording_at: v.pipe(
    v.nullable(v.string()),
    v.description('When their latest recording was made (ISO 8601 UTC); null when they have none.'),
  ),
});
export type Member = v.InferOutput<typeof Member>;

/** Body of Update member: the member's new role (nothing else of a membership is changed through the API). */
export const UpdateMemberBody = v.strictObject({
  role: v.pipe(
    RoleName,
    v.description(
      'The new role: owner, admin, member or viewer. Only owners make owners and admins; the last active owner keeps the owner role.',
    ),
  ),
});
export type UpdateMemberBody = v.InferOutput<typeof UpdateMemberBody>;
