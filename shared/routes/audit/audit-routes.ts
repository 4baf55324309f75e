import { listAuditLogDocs, listAuditLogRoute } from './list-audit-log';

/** The organization's audit log. In manifest order: the order of the OpenAPI document, the stack and the sample requests. */
export const AUDIT_ROUTES = [{ route: listAuditLogRoute, docs: listAuditLogDocs }] as const;
