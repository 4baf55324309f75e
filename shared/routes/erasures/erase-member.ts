import { EraseMemberBody, ErasureResponse } from '../../schemas/erasures';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { erasureExample } from './erasure-example';

export const eraseMemberRoute = defineRoute({
  name: 'eraseMember',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/users/{userId}/erasure',
  handler: 'functions/erasures/erase-member',
  summary: 'Erase a member from the organization for good: their recordings, settings, keys, invitations and membership (GDPR art. 17)',
  // Owners only: an erasure cannot be undone. No personal key may erase anyone.
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  // GetItem: membership, guard, user, member hold; Query: another owner, the holds; PutItem: the erasure and its guard, in one transaction.
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  request: { body: EraseMemberBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const eraseMemberDocs = (): OperationDocs => ({
  description:
    'Queues the erasure of a member (a current or former one) from this organization: their recordings with their files, transcripts, summaries, translations and search entries, their exports, settings, profile and preferences, personal API keys, invitations to their email and membership; action items naming them in others\' recordings become "Former member". Once they are a member of no organization, their user goes too. What remains is the erasure itself and one `user.erased` audit entry, with ids and counts only (docs/governance.md). `confirm` must be the member\'s email. It runs off the request, resumably: a second request while it runs answers the same erasure.',
  responses: { 202: ErasureResponse },
  errors: {
    400: ['INVALID_CONFIRMATION'],
    404: ['MEMBER_NOT_FOUND'],
    409: ['LAST_OWNER', 'LEGAL_HOLD'],
  },
  examples: {
    request: { confirm: 'victor.viewer@demo.example' },
    responses: { 202: { success: true, data: { ...erasureExample, status: 'queued', step: 'recordings', completed_at: null } } },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { userId: ids.managedMemberId },
    body: { confirm: ids.managedMemberEmail },
    status: 202,
  }),
});
