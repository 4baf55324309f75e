import { SuccessOnly } from '../../schemas/envelopes';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const resendInviteRoute = defineRoute({
  name: 'resendInvite',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/invites/{inviteId}/resend',
  handler: 'functions/invites/resend-invite',
  summary: 'Send a pending invitation again with a new link',
  access: orgRoute('admin', 'invites:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const resendInviteDocs = (): OperationDocs => ({
  description: 'Sends a pending (or expired) invitation again with a new link and a new expiry; the link sent before stops working.',
  responses: { 200: SuccessOnly },
  errors: { 404: ['INVITE_NOT_FOUND'], 409: ['INVITE_NOT_PENDING', 'INVITE_PENDING', 'CONCURRENT_UPDATE'] },
  examples: { responses: { 200: { success: true } } },
  sample: (ids) => ({ credential: 'orgKey', path: { inviteId: ids.resendInviteId }, status: 200 }),
});
