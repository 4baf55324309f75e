import type { ExportRequestDeps } from '../domain/exports/create-member-export';
import type { ExportDeletionDeps } from '../domain/exports/delete-member-exports';
import type { ExportReadDeps } from '../domain/exports/get-member-export';
import { table } from '../storage/dynamo';
import { exportObjects } from '../storage/export-objects';

/**
 * The member export routes' composition root (docs/governance.md, "Export"): the table, the
 * bucket's export objects and the clock. The consumer that writes the ZIP decrypts profiles:
 * its dependencies are in member-export-run-deps.ts, so these bundles carry no cipher.
 */

let requests: ExportRequestDeps | undefined;
let reads: ExportReadDeps | undefined;
let deletions: ExportDeletionDeps | undefined;

/** Create member export. */
export function exportRequestDeps(): ExportRequestDeps {
  return (requests ??= { db: table(), now: () => new Date() });
}

/** Get member export: signs download URLs. */
export function exportReadDeps(): ExportReadDeps {
  return (reads ??= { db: table(), objects: exportObjects(), now: () => new Date() });
}

/** deleteMemberExports (the erasure): the items and their ZIPs. */
export function exportDeletionDeps(): ExportDeletionDeps {
  return (deletions ??= { db: table(), objects: exportObjects() });
}
