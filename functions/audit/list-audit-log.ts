import { config } from '../../shared/config';
import { listAuditLog } from '../../shared/domain/audit/list-audit-log';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listAuditLogRoute } from '../../shared/routes/audit/list-audit-log';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/audit-log?type=&actor_id=&resource_id=&since=&until=&limit=&cursor= */
export const handler = apiHandler(listAuditLogRoute, async ({ caller, query }) =>
  json(200, await listAuditLog({ db: table(), now: () => new Date(), retentionDays: config().events.auditRetentionDays }, caller.orgId, query)),
);
