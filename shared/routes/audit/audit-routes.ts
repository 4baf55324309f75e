import { listAuditLogDocs, listAuditLogRoute } from './list-audit-log';
import { defineRouteArea } from '../route-definition';

/** The organization's audit log. */
export const AUDIT_ROUTES = defineRouteArea({
  area: 'audit',
  stack: 'audit',
  routes: [{ route: listAuditLogRoute, docs: listAuditLogDocs }],
});
