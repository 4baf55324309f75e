import { MemberResponse } from '../../schemas/member-responses';
import { mia } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const removeMemberRoute = defineRoute({
  name: 'removeMember',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/users/{userId}',
  handler: 'functions/members/remove-member',
  summary: 'Remove a member from the organization (or leave it): their recordings stay',
  // Any active member may remove themselves (leave); removing someone else needs admin (checked in the domain).
  access: { idToken: { minRole: 'viewer' }, orgKey: { scopes: ['users:write'] } },
  // UpdateItem: the membership and the organization's active member count, in one transaction;
  // ConditionCheckItem: another active owner when an owner leaves or is removed.
  permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const removeMemberDocs = (): OperationDocs => ({
  description:
    'Removes a member from the organization, or lets a member leave it: they leave the member list, their recordings stay, their personal API keys are revoked shortly after (docs/members.md).',
  responses: { 200: MemberResponse },
  errors: { 403: ['CANNOT_MANAGE_MEMBER'], 404: ['MEMBER_NOT_FOUND'], 409: ['LAST_OWNER', 'CONCURRENT_UPDATE'] },
  examples: {
    responses: { 200: { success: true, data: { ...mia, status: 'removed', is_active: false, updated_at: '2026-11-20T10:00:00.000Z' } } },
  },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.managedMemberId }, status: 200 }),
});
