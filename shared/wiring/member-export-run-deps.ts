import { config } from '../config';
import { profileCipher } from '../crypto/configured-cipher';
import type { ExportRunDeps } from '../domain/exports/run-member-export';
import { table } from '../storage/dynamo';
import { exportObjects } from '../storage/export-objects';

/** The export consumer's composition root: the table, the profile cipher, the bucket, the model catalog, the audit retention, the clock. */

let run: ExportRunDeps | undefined;

export function exportRunDeps(): ExportRunDeps {
  return (run ??= {
    db: table(),
    cipher: profileCipher(),
    objects: exportObjects(),
    models: config().models,
    auditRetentionDays: config().events.auditRetentionDays,
    now: () => new Date(),
  });
}
