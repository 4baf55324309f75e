import * as v from 'valibot';
import { integerParam } from '../http/validation';
import { RoleName } from './common';

/** Query of List users (both the organization route and the public alias). */
export const ListUsersQuery = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'must be at most 200 characters'))),
  page: integerParam({ defaultValue: 1, min: 1 }),
  limit: integerParam({ defaultValue: 25, min: 1, max: 100 }),
});
export type ListUsersQuery = v.InferOutput<typeof ListUsersQuery>;

/** A member as List users returns it. */
export const Member = v.object({
  user_id: v.string(),
  email: v.string(),
  display_name: v.string(),
  role: v.picklist(['owner', 'admin', 'member', 'viewer']),
  status: v.string(),
  is_active: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
  member_since: v.string(),
  recording_count: v.number(),
  latest_recording_at: v.nullable(v.string()),
});
export type Member = v.InferOutput<typeof Member>;

/** Body of Update member: the member's new role (nothing else of a membership is changed through the API). */
export const UpdateMemberBody = v.strictObject({ role: RoleName });
export type UpdateMemberBody = v.InferOutput<typeof UpdateMemberBody>;

/** `{success: true, data: Member}`: the answer of Update member and Remove member (the member as the change left them). */
export const MemberResponse = v.strictObject({ success: v.literal(true), data: v.strictObject(Member.entries) });
