import { listAuditLog } from '../../shared/domain/audit/list-audit-log';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listAuditLogRoute } from '../../shared/routes/audit/list-audit-log';
import { auditLogDeps } from '../../shared/wiring/audit-deps';

/** GET /api/v1/organization/{orgId}/audit-log?type=&actor_id=&resource_id=&since=&until=&limit=&cursor= */
export const handler = apiHandler(listAuditLogRoute, async ({ caller, query }) =>
  json(200, await listAuditLog(auditLogDeps(), caller.orgId, query)),
);
