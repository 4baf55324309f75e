import { createMemberExport } from '../../shared/domain/exports/create-member-export';
import { memberExportView } from '../../shared/domain/exports/export-views';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { createMemberExportRoute } from '../../shared/routes/exports/create-member-export';
import { exportRequestDeps } from '../../shared/wiring/member-export-deps';

/** POST /api/v1/organization/{orgId}/users/{userId}/exports */
export const handler = idempotentApiHandler(createMemberExportRoute, async ({ caller, path, body }) => {
  const record = await createMemberExport(exportRequestDeps(), caller, path.userId, body);
  return envelope(memberExportView(record), undefined, 202);
});
