import { AuditLogResponse, ListAuditLogQuery } from '../../schemas/audit';
import { ADMIN, STANDUP } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const listAuditLogRoute = defineRoute({
  name: 'listAuditLog',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/audit-log',
  handler: 'functions/audit/list-audit-log',
  summary: "Read the organization's audit log: who changed what, newest first",
  access: memberRoute('audit:read'),
  permissions: { table: ['GetItem', 'Query'] },
  request: { query: ListAuditLogQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const listAuditLogDocs = (): OperationDocs => {
  const CORRELATION = '6f1c2b7e-3d4a-4e5f-9a8b-0c1d2e3f4a5b';
  return {
    description:
      "Reads the organization's audit log, newest first: one entry per committed change, with who made it and what changed (never the content), filtered by type, actor, resource and time.",
    responses: { 200: AuditLogResponse },
    errors: {},
    examples: {
      responses: {
        200: {
          entries: [
            {
              id: 'evt_0cc175b9c0f1b6a831c399e269772661',
              type: 'recording.updated',
              occurred_at: '2026-11-20T10:00:00.000Z',
              actor: { kind: 'user', id: ADMIN },
              resource: { type: 'recording', id: STANDUP },
              correlation_id: CORRELATION,
              changes: ['title', 'tags'],
            },
          ],
          pagination: { page: 1, limit: 20, next_cursor: null },
        },
      },
    },
    sample: () => ({ credential: 'orgKey', query: { type: 'template.', limit: '10' }, status: 200 }),
  };
};
