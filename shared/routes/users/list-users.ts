import { MemberListResponse } from '../../schemas/member-responses';
import { ListUsersQuery } from '../../schemas/members';
import { ADMIN, mia, page } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listUsersRoute = defineRoute({
  name: 'listUsers',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/users',
  publicAlias: '/api/v1/public/users',
  handler: 'functions/users/list-users',
  summary: 'List the active members of an organization',
  access: memberRoute('users:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListUsersQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listUsersDocs = (): OperationDocs => {
  const adam = {
    ...mia,
    user_id: ADMIN,
    email: 'adam.admin@demo.example',
    display_name: 'Adam Admin',
    role: 'admin',
    recording_count: 1,
    latest_recording_at: '2026-11-18T02:30:00.000Z',
  };
  return {
    description:
      "Lists the organization's active members (pending and removed ones left out), by email, a page at a time; `q` filters by email or name.",
    responses: { 200: MemberListResponse },
    errors: {},
    examples: { responses: { 200: { success: true, data: [adam, mia], pagination: page(2, 25) } } },
    sample: () => ({ credential: 'orgKey', query: { q: 'mia', limit: '10' }, status: 200 }),
  };
};
