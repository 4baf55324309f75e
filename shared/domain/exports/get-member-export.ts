import type { Caller } from '../../auth/policy';
import type { ExportObjects } from '../../storage/export-objects';
import type { TableContext } from '../../storage/dynamo';
import type { MemberExport } from '../../storage/member-export-items';
import { getMemberExport as readMemberExport } from '../../storage/member-exports';
import { exportNotFound, requireExportAccess } from './export-access';
import type { ExportDownload } from './export-views';

export interface ExportReadDeps {
  db: TableContext;
  objects: Pick<ExportObjects, 'presignDownload'>;
  now: () => Date;
}

/** How long a download URL works: short, since the URL alone is the credential; a new one comes with every read. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

/**
 * Get member export: one GetItem; when completed (and not past its expiry, which DynamoDB's
 * TTL may take a while to act on), a download URL signed now, with no request to S3.
 */
export async function getMemberExport(
  deps: ExportReadDeps,
  caller: Caller,
  userId: string,
  exportId: string,
): Promise<{ record: MemberExport; download?: ExportDownload }> {
  requireExportAccess(caller, userId);
  const record = await readMemberExport(deps.db, caller.orgId, userId, exportId);
  const now = deps.now();
  if (!record || (record.expires_at && record.expires_at <= now.toISOString())) throw exportNotFound(exportId);
  if (record.status !== 'completed' || !record.object_key) return { record };
  const url = await deps.objects.presignDownload(record.object_key, `${record.id}.zip`, DOWNLOAD_URL_SECONDS, now);
  return { record, download: { url, expiresAt: new Date(now.getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString() } };
}
