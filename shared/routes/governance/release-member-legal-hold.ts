import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const releaseMemberLegalHoldRoute = defineRoute({
  name: 'releaseMemberLegalHold',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/users/{userId}/legal-hold',
  handler: 'functions/governance/release-member-legal-hold',
  summary: "Release a member's legal hold",
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['GetItem', 'UpdateItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const releaseMemberLegalHoldDocs = (): OperationDocs => ({
  description:
    "Releases the member's hold; their recordings are held again only by holds of their own. Releasing a member without a hold changes nothing. Audited as `member.legal_hold_released`.",
  responses: { 200: SuccessOnly },
  errors: { 404: ['MEMBER_NOT_FOUND'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.memberId }, status: 200 }),
});
