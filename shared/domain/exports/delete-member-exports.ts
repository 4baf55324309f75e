import type { ExportObjects } from '../../storage/export-objects';
import type { TableContext } from '../../storage/dynamo';
import { memberExportObjectKey } from '../../storage/member-export-items';
import { deleteMemberExportItem, listMemberExports } from '../../storage/member-exports';

export interface ExportDeletionDeps {
  db: TableContext;
  objects: Pick<ExportObjects, 'deleteObject'>;
}

/**
 * Removes every export of a member in an organization: each ZIP (by its known key, so no
 * listing of the bucket is needed), then its item. Idempotent: nothing left is a success, and
 * a crash midway leaves the rest for the next call. An export still running when this runs
 * fails to finish (its item is gone) and its upload is then deleted by the bucket's lifecycle.
 * Answers how many exports went (the erasure counts them).
 */
export async function deleteMemberExports(deps: ExportDeletionDeps, orgId: string, userId: string): Promise<number> {
  const exports = await listMemberExports(deps.db, orgId, userId);
  for (const record of exports) {
    // The key is derived, not read: a ZIP uploaded by a run that then failed to record it goes too.
    await deps.objects.deleteObject(record.object_key ?? memberExportObjectKey(orgId, userId, record.id));
    await deleteMemberExportItem(deps.db, orgId, userId, record.id);
  }
  return exports.length;
}
