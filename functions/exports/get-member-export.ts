import { getMemberExport } from '../../shared/domain/exports/get-member-export';
import { memberExportView } from '../../shared/domain/exports/export-views';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getMemberExportRoute } from '../../shared/routes/exports/get-member-export';
import { exportReadDeps } from '../../shared/wiring/member-export-deps';

/** GET /api/v1/organization/{orgId}/users/{userId}/exports/{exportId} */
export const handler = apiHandler(getMemberExportRoute, async ({ caller, path }) => {
  const { record, download } = await getMemberExport(exportReadDeps(), caller, path.userId, path.exportId);
  return envelope(memberExportView(record, download));
});
