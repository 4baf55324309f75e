import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const revokeInviteRoute = defineRoute({
  name: 'revokeInvite',
  method: 'DELETE',
  path: '/api/v1/organization/{orgId}/invites/{inviteId}',
  handler: 'functions/invites/revoke-invite',
  summary: 'Revoke a pending invitation',
  access: orgRoute('admin', 'invites:write'),
  permissions: { table: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const revokeInviteDocs = (): OperationDocs => ({
  description: 'Revokes a pending invitation: its link stops working at once.',
  responses: { 200: SuccessOnly },
  errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING', 'CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { inviteId: ids.revokeInviteId }, status: 200 }),
});
