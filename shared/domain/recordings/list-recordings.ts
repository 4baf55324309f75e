import { requireCallerAccess, type Caller } from '../../auth/policy';
import { ValidationError } from '../../http/errors';
import type { ListRecordingsQuery } from '../../schemas/recordings';
import type { TableContext } from '../../storage/dynamo';
import { getMembership } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import { countMatching, readRecordingPage, type RecordingFilter } from '../../storage/recording-index';
import type { Recording } from '../../storage/recordings';
import { findUserIdByEmail } from '../../storage/users';
import { decodeCursor, encodeCursor } from './recording-cursor';
import { listItemView } from './recording-views';

/**
 * Inclusive created_at bounds from UTC days: a day runs from 00:00:00.000 to 23:59:59.999.
 * `date` is one day; startDate/endDate bound a range (either may be open).
 */
export function dayBounds(input: { date?: string; startDate?: string; endDate?: string }, names = { date: 'date', start: 'startDate', end: 'endDate' }) {
  const { date, startDate, endDate } = input;
  if (date && (startDate || endDate)) throw ValidationError.field(names.date, 'invalid', `cannot be combined with ${names.start} or ${names.end}`);
  const start = date ?? startDate;
  const end = date ?? endDate;
  if (start && end && start > end) throw ValidationError.field(names.start, 'out_of_range', `is after ${names.end}`);
  return { from: start ? `${start}T00:00:00.000Z` : undefined, to: end ? `${end}T23:59:59.999Z` : undefined };
}

export interface ListRequest {
  filter: RecordingFilter;
  page: number;
  limit: number;
  cursor?: string;
}

export interface ListResult {
  recordings: Recording[];
  page: number;
  limit: number;
  total: number;
  nextCursor: string | null;
}

/**
 * A page of recordings, newest first (created_at, then id), by page number or keyset
 * cursor. The page reads its own entries (plus the skipped ones for page numbers); the
 * total comes from a maintained count when no filter is set, else from a COUNT over the
 * filter (docs/data-model.md gives each cost).
 */
export async function listRecordings(db: TableContext, request: ListRequest): Promise<ListResult> {
  const { filter, limit } = request;
  const position = request.cursor ? decodeCursor(request.cursor, filter) : { after: undefined, page: request.page };
  const offset = request.cursor ? 0 : (request.page - 1) * limit;
  const [{ recordings, lastSortKey, hasMore }, total] = await Promise.all([
    readRecordingPage(db, filter, { offset, limit, after: position.after }),
    totalOf(db, filter),
  ]);
  return {
    recordings,
    page: position.page,
    limit,
    total,
    nextCursor: hasMore && lastSortKey ? encodeCursor(lastSortKey, position.page + 1, filter) : null,
  };
}

async function totalOf(db: TableContext, filter: RecordingFilter): Promise<number> {
  const unbounded = !filter.from && !filter.to && !filter.tagIds?.length;
  if (unbounded && !filter.recordedBy) {
    const org = await getOrganization(db, filter.orgId);
    return (filter.bin === 'LIVE' ? org?.recording_count : org?.trash_count) ?? 0;
  }
  // The recorder's membership counts only its live recordings.
  if (unbounded && filter.recordedBy && filter.bin === 'LIVE') return (await getMembership(db, filter.orgId, filter.recordedBy))?.recording_count ?? 0;
  return countMatching(db, filter);
}

/** The user id behind recordedByEmail; undefined when no user has it (an empty list, not an error). */
export async function recorderIdByEmail(db: TableContext, email: string): Promise<string | undefined> {
  return findUserIdByEmail(db, email.trim().toLowerCase());
}

/**
 * The organization's List recordings: query parameters to a filter (UTC days, tags, the
 * recorder by id or email, the trash for admins), then a page by number or cursor.
 */
export async function listOrganizationRecordings(db: TableContext, caller: Caller, query: ListRecordingsQuery) {
  const page = query.page ?? 1;
  if (query.page !== undefined && query.cursor) throw ValidationError.field('page', 'invalid', 'cannot be combined with cursor (the cursor knows its page)');
  if (query.recordedBy && query.recordedByEmail) throw ValidationError.field('recordedBy', 'invalid', 'cannot be combined with recordedByEmail');
  const trash = query.deleted === 'true';
  if (trash) requireCallerAccess(caller, 'admin', 'recordings:write', 'Listing the trash');
  const { from, to } = dayBounds(query);
  const recordedBy = query.recordedByEmail ? await recorderIdByEmail(db, query.recordedByEmail) : query.recordedBy;
  const limit = query.limit;
  if (query.recordedByEmail && !recordedBy) {
    return { recordings: [], pagination: { page, limit, total: 0, next_cursor: null } };
  }
  const result = await listRecordings(db, {
    filter: { orgId: caller.orgId, bin: trash ? 'TRASH' : 'LIVE', from, to, recordedBy, tagIds: query.tagIds, tagMode: query.tagMode },
    page,
    limit,
    cursor: query.cursor,
  });
  return {
    recordings: result.recordings.map(listItemView),
    pagination: { page: result.page, limit, total: result.total, next_cursor: result.nextCursor },
  };
}
