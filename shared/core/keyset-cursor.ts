import { createHash } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * The one keyset cursor of every list read by position (recordings, the audit log, API keys,
 * webhook deliveries). A cursor is opaque, URL-safe text (base64url JSON): where the next page
 * starts, in a few short fields of the list's own, and `f`, a hash of the list's name and
 * filters, so a cursor replayed against another list, or with other filters, is refused
 * instead of skipping or repeating items silently, and shows none of the filters.
 *
 * Every list refuses a cursor the same way, a 400 on the field `cursor`: `format` for text this
 * API did not issue, `invalid_value` for a cursor of a list with other filters.
 */
export interface KeysetCursor<Position, Filter> {
  encode(position: Position, filter: Filter): string;
  /** The position of a cursor this API issued for the same list and filters; else the 400 above. */
  decode(cursor: string, filter: Filter): Position;
}

/** How one list binds its cursors to its filters, and writes its position into them. */
export interface KeysetCursorFormat<Position, Filter> {
  /**
   * What a cursor is bound to: the list's name and each filter that changes which items it
   * holds, in a fixed order. Hashed into the fingerprint; changing the order or the values
   * refuses the cursors issued before.
   */
  bindsTo(filter: Filter): readonly unknown[];
  /** The position as the cursor's fields (short names; `f` is the fingerprint's). */
  write(position: Position): Record<string, string | number>;
  /** The position from a cursor's fields, or undefined when they are not fields `write` makes. */
  read(fields: Readonly<Record<string, unknown>>): Position | undefined;
  /**
   * Whether a position can belong to this very list (read after the fingerprint matched),
   * e.g. inside its time bounds; a position that cannot was not issued for it.
   */
  fits?(position: Position, filter: Filter): boolean;
  /** Fingerprints that cursors issued by an earlier version carry for the same list: still honoured. */
  formerFingerprints?(filter: Filter): readonly string[];
}

export function keysetCursor<Position, Filter>(format: KeysetCursorFormat<Position, Filter>): KeysetCursor<Position, Filter> {
  return {
    encode(position, filter) {
      return Buffer.from(JSON.stringify({ ...format.write(position), f: fingerprintOf(format.bindsTo(filter)) })).toString('base64url');
    },
    decode(cursor, filter) {
      const fields = fieldsOf(cursor);
      const position = fields && typeof fields.f === 'string' ? format.read(fields) : undefined;
      if (!fields || position === undefined) throw notIssued();
      const fingerprints = [fingerprintOf(format.bindsTo(filter)), ...(format.formerFingerprints?.(filter) ?? [])];
      if (!fingerprints.includes(fields.f as string)) throw ofAnotherList();
      if (format.fits && !format.fits(position, filter)) throw notIssued();
      return position;
    },
  };
}

/** The position of a list with page numbers: the sort key the previous page ended on, and this page's number. */
export interface NumberedPosition {
  after: string;
  page: number;
}

/** Writes and reads a NumberedPosition (`a`, `p`); a cursor never starts page 1 or a fraction of a page. */
export const numberedPosition = {
  write: ({ after, page }: NumberedPosition) => ({ a: after, p: page }),
  read: ({ a, p }: Readonly<Record<string, unknown>>): NumberedPosition | undefined =>
    typeof a === 'string' && typeof p === 'number' && Number.isInteger(p) && p >= 2 ? { after: a, page: p } : undefined,
};

/** A hash of what a cursor is bound to: 16 base64url characters (96 bits), short in a URL. */
function fingerprintOf(bindsTo: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(bindsTo)).digest('base64url').slice(0, 16);
}

function fieldsOf(cursor: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const notIssued = () => ValidationError.field('cursor', 'format', 'is not a cursor this API issued');
const ofAnotherList = () =>
  ValidationError.field('cursor', 'invalid_value', 'belongs to a list with other filters; start again without it');
