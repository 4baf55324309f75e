import { Invite } from '../../schemas/invite-responses';
import { SendInviteBody } from '../../schemas/invites';
import { invite } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const sendInviteRoute = defineRoute({
  name: 'sendInvite',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/invites',
  handler: 'functions/invites/send-invite',
  summary: 'Invite someone by email',
  access: orgRoute('admin', 'invites:write'),
  permissions: { table: ['GetItem', 'Query', 'PutItem'] },
  request: { body: SendInviteBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const sendInviteDocs = (): OperationDocs => ({
  description:
    'Invites someone by email with a role: the invitation is pending until accepted, revoked or expired, and its email (with a link to accept) is sent off the request (`email_status`).',
  responses: { 201: Invite },
  errors: { 409: ['ALREADY_MEMBER', 'INVITE_PENDING', 'CONCURRENT_UPDATE'] },
  examples: {
    request: { email: 'nora.new@demo.example', role: 'member' },
    responses: { 201: { ...invite, email_status: 'queued', email_sent_at: null, email_attempts: 0 } },
  },
  sample: (ids) => ({ credential: 'orgKey', body: { email: ids.newInviteEmail, role: 'member' }, status: 201 }),
});
