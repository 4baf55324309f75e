import { InviteListResponse } from '../../schemas/invite-responses';
import { ListInvitesQuery } from '../../schemas/invites';
import { invite, page } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listInvitesRoute = defineRoute({
  name: 'listInvites',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/invites',
  handler: 'functions/invites/list-invites',
  summary: "List the organization's invitations",
  access: orgRoute('admin', 'invites:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListInvitesQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listInvitesDocs = (): OperationDocs => ({
  description: "Lists the organization's invitations, newest first, optionally of one status.",
  responses: { 200: InviteListResponse },
  errors: {},
  examples: { responses: { 200: { invites: [invite], pagination: page(1, 20) } } },
  sample: () => ({ credential: 'orgKey', query: { status: 'pending', limit: '20' }, status: 200 }),
});
