import { createHash } from 'node:crypto';
import { ValidationError } from '../../http/errors';
import { AUDIT_SORT_KEY, type AuditFilter } from '../../storage/audit-log';

/**
 * An opaque keyset cursor of the audit log, like the recordings' (recording-cursor.ts):
 * the sort key the previous page ended on, the page number, and a fingerprint of the
 * filters, so a cursor cannot be replayed against a list with other filters.
 */
export function encodeAuditCursor(after: string, page: number, filter: AuditFilter): string {
  return Buffer.from(JSON.stringify({ a: after, p: page, f: fingerprint(filter) })).toString('base64url');
}

/**
 * Reads a cursor this API issued for the same filters: 400 `cursor` when it is not one
 * (format) or belongs to a list with other filters (invalid_value).
 */
export function decodeAuditCursor(cursor: string, filter: AuditFilter): { after: string; page: number } {
  try {
    const { a, p, f } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof a !== 'string' || !AUDIT_SORT_KEY.test(a) || !Number.isInteger(p) || p < 2) throw new Error('shape');
    if (f !== fingerprint(filter)) throw ValidationError.field('cursor', 'invalid_value', 'belongs to a list with other filters; start again without it');
    // A page ends on an entry inside the list's time bounds; a key outside them was not issued for it.
    if ((filter.since && a < filter.since) || (filter.until && a > `${filter.until}#~`)) throw new Error('bounds');
    return { after: a, page: p };
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw ValidationError.field('cursor', 'format', 'is not a cursor this API issued');
  }
}

function fingerprint(filter: AuditFilter): string {
  const { orgId, type, actorId, resourceId, since, until } = filter;
  return createHash('sha256').update(JSON.stringify(['audit', orgId, type, actorId, resourceId, since, until])).digest('base64url').slice(0, 16);
}
