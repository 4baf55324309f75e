import { AcceptInviteResponse } from '../../schemas/invite-responses';
import { AcceptInviteBody } from '../../schemas/invites';
import { ORG } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const acceptInviteRoute = defineRoute({
  name: 'acceptInvite',
  method: 'POST',
  path: '/api/v1/organization/invites/accept',
  handler: 'functions/invites/accept-invite',
  summary: 'Accept an invitation as the signed-in user',
  access: { idToken: { minRole: 'viewer' } },
  orgless: true,
  permissions: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  request: { body: AcceptInviteBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const acceptInviteDocs = (): OperationDocs => ({
  description:
    "Accepts an invitation with the token of its link: the caller joins the organization with the invitation's role (a user is created for someone new). The caller's verified email must be the invited one.",
  responses: { 200: AcceptInviteResponse },
  errors: {
    403: ['INVITE_EMAIL_MISMATCH'],
    404: ['INVITE_NOT_FOUND'],
    409: ['INVITE_ALREADY_ACCEPTED', 'CONCURRENT_UPDATE'],
    410: ['INVITE_REVOKED', 'INVITE_EXPIRED'],
  },
  examples: {
    request: { token: 'b3f1c9a7e5d24f6081a3c5e7f9b1d3f5a7c9e1b3d5f7a9c1' },
    responses: { 200: { org_id: ORG, role: 'member', status: 'active' } },
  },
  sample: (ids) => ({ credential: 'idToken', body: { token: ids.inviteToken }, status: 200 }),
});
