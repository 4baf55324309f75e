import { createHash } from 'node:crypto';
import { ValidationError } from '../../http/errors';
import type { RecordingFilter } from '../../storage/recording-index';

/**
 * An opaque keyset cursor: where the next page starts (the sort key the previous page
 * ended on), its page number, and a fingerprint of the filter it belongs to, so a cursor
 * cannot be replayed against another list.
 */
export function encodeCursor(after: string, page: number, filter: RecordingFilter): string {
  return Buffer.from(JSON.stringify({ a: after, p: page, f: fingerprint(filter) })).toString('base64url');
}

/**
 * Reads a cursor this API issued for the same filter: 400 `cursor` when it is not one
 * (format) or belongs to a list with other filters (invalid_value).
 */
export function decodeCursor(cursor: string, filter: RecordingFilter): { after: string; page: number } {
  try {
    const { a, p, f } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof a !== 'string' || !Number.isInteger(p) || p < 2) throw new Error('shape');
    if (f !== fingerprint(filter)) throw ValidationError.field('cursor', 'invalid_value', 'belongs to a list with other filters; start again without it');
    return { after: a, page: p };
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw ValidationError.field('cursor', 'format', 'is not a cursor this API issued');
  }
}

function fingerprint(filter: RecordingFilter): string {
  const { orgId, bin, from, to, recordedBy, tagIds, tagMode } = filter;
  return createHash('sha256').update(JSON.stringify([orgId, bin, from, to, recordedBy, tagIds, tagMode])).digest('base64url').slice(0, 16);
}
