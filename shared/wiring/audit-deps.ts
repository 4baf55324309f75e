import { config } from '../config';
import type { AuditRecorderDeps } from '../domain/audit/record-audit-entry';
import type { AuditLogDeps } from '../domain/audit/list-audit-log';
import { table } from '../storage/dynamo';

/** The audit log's composition root: the table, the clock and how long entries are kept, built from config on first use and kept. */

let reader: AuditLogDeps | undefined;
let recorder: AuditRecorderDeps | undefined;

/** Reading the audit log (the route). */
export function auditLogDeps(): AuditLogDeps {
  return (reader ??= { db: table(), now: () => new Date(), retentionDays: config().events.auditRetentionDays });
}

/** Storing its entries (the audit log consumer). */
export function auditRecorderDeps(): AuditRecorderDeps {
  return (recorder ??= { db: table(), retentionDays: config().events.auditRetentionDays });
}
