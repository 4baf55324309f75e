import { MemberResponse } from '../../schemas/member-responses';
import { UpdateMemberBody } from '../../schemas/members';
import { mia } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateMemberRoute = defineRoute({
  name: 'updateMember',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/users/{userId}',
  handler: 'functions/members/update-member',
  summary: "Change a member's role",
  access: memberRoute('users:write'),
  // UpdateItem: the membership, conditioned on its read status and role; ConditionCheckItem: another active owner when an owner is demoted.
  permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'] },
  request: { body: UpdateMemberBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateMemberDocs = (): OperationDocs => ({
  description:
    "Changes a member's role. Owners change any role; admins and organization keys only members and viewers, to member or viewer; the last active owner keeps the role (docs/members.md).",
  responses: { 200: MemberResponse },
  errors: { 403: ['CANNOT_ASSIGN_ROLE', 'CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] },
  examples: {
    request: { role: 'admin' },
    responses: { 200: { success: true, data: { ...mia, role: 'admin', updated_at: '2026-11-20T10:00:00.000Z' } } },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.managedMemberId }, body: { role: 'member' }, status: 200 }),
});
