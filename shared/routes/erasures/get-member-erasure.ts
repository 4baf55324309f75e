import { ErasureResponse } from '../../schemas/erasures';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { erasureExample } from './erasure-example';

export const getMemberErasureRoute = defineRoute({
  name: 'getMemberErasure',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/users/{userId}/erasures/{erasureId}',
  handler: 'functions/erasures/get-member-erasure',
  summary: "Read a member's erasure: its status, step and counts",
  access: { idToken: { minRole: 'owner' }, orgKey: { scopes: ['governance:write'] } },
  permissions: { table: ['GetItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getMemberErasureDocs = (): OperationDocs => ({
  description:
    'Reads an erasure of a member: `queued`, `running` (with the step it is at) or `completed`, and what it erased so far. It stays after the member is gone: ids and counts only.',
  responses: { 200: ErasureResponse },
  errors: { 404: ['ERASURE_NOT_FOUND'] },
  examples: { responses: { 200: { success: true, data: erasureExample } } },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.managedMemberId, erasureId: ids.erasureId }, status: 200 }),
});
