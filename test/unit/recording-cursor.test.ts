import { recordingListCursor } from '../../shared/domain/recordings/list-recordings';
import type { RecordingFilter } from '../../shared/storage/recording-index';

/**
 * List cursors are opaque to clients but must come back as issued: the next page starts
 * where the last one ended, and a cursor cannot be replayed against another filter (it
 * would skip or repeat recordings silently).
 */
const filter: RecordingFilter = { orgId: 'org_1', bin: 'LIVE', from: '2026-01-01T00:00:00.000Z', tagIds: ['tag_a'], tagMode: 'any' };
const AFTER = '2026-01-10T09:00:00.000Z#rec_1';

const encodeCursor = (after: string, page: number, filter: RecordingFilter) => recordingListCursor.encode({ after, page }, filter);
const decodeCursor = (cursor: string, filter: RecordingFilter) => recordingListCursor.decode(cursor, filter);

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { code: (error as { code?: string }).code, details: (error as { details?: unknown }).details };
  }
  throw new Error('expected a refusal');
};

describe('list cursors', () => {
  it('round-trip the position and the page number', () => {
    expect(decodeCursor(encodeCursor(AFTER, 3, filter), filter)).toEqual({ after: AFTER, page: 3 });
  });

  it('are URL-safe text that does not show the position', () => {
    const cursor = encodeCursor(AFTER, 2, filter);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('rec_1');
  });

  it('belong to their filter: any other organization, bin, bound, recorder, tag or tag mode refuses them', () => {
    const cursor = encodeCursor(AFTER, 2, filter);
    const others: RecordingFilter[] = [
      { ...filter, orgId: 'org_2' },
      { ...filter, bin: 'TRASH' },
      { ...filter, from: undefined },
      { ...filter, to: '2026-02-01T23:59:59.999Z' },
      { ...filter, recordedBy: 'usr_1' },
      { ...filter, tagIds: ['tag_b'] },
      { ...filter, tagMode: 'all' },
    ];
    for (const other of others) {
      expect(problem(() => decodeCursor(cursor, other))).toEqual({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'cursor', issue: 'invalid_value', message: 'belongs to a list with other filters; start again without it' }],
      });
    }
  });

  it('refuse text the API did not issue: garbage, other JSON, a first page or a fractional page', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const fingerprintOf = JSON.parse(Buffer.from(encodeCursor(AFTER, 2, filter), 'base64url').toString('utf8')).f;
    for (const cursor of [
      'not a cursor',
      '',
      forged([1, 2]),
      forged({ a: 1, p: 2, f: fingerprintOf }),
      forged({ a: AFTER, p: 1, f: fingerprintOf }),
      forged({ a: AFTER, p: 2.5, f: fingerprintOf }),
    ]) {
      expect(problem(() => decodeCursor(cursor, filter))).toEqual({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'cursor', issue: 'format', message: 'is not a cursor this API issued' }],
      });
    }
  });
});
