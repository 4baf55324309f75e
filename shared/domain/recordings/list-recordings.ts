import { requireCallerAccess, type Caller } from '../../auth/policy';
import { ValidationError } from '../../core/errors';
import { keysetCursor, numberedPosition, type NumberedPosition } from '../../core/keyset-cursor';
import type { ListRecordingsQuery } from '../../schemas/recordings';
import type { TableContext } from '../../storage/dynamo';
import { getMembership } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import { countRecordingsInDays, dayOfPosition, wholeDays, type DayRange } from '../../storage/recording-day-counts';
import { type RecordingFilter } from '../../storage/recording-index';
import { countMatching } from '../../storage/recording-pages';
import { readRecordingPageFromEnd } from '../../storage/recording-pages';
import { readRecordingPage } from '../../storage/recording-pages';
import { type RecordingPage } from '../../storage/recording-pages';
import type { Recording } from '../../storage/recording-items';
import { findUserIdByEmail } from '../../storage/users';
import { listItemView } from './recording-views';

/**
 * Inclusive created_at bounds from UTC days: a day runs from 00:00:00.000 to 23:59:59.999.
 * `date` is one day; startDate/endDate bound a range (either may be open).
 */
export function dayBounds(
  input: { date?: string; startDate?: string; endDate?: string },
  names = { date: 'date', start: 'startDate', end: 'endDate' },
) {
  const { date, startDate, endDate } = input;
  if (date && (startDate || endDate))
    throw ValidationError.field(names.date, 'invalid', `cannot be combined with ${names.start} or ${names.end}`);
  const start = date ?? startDate;
  const end = date ?? endDate;
  if (start && end && start > end) throw ValidationError.field(names.start, 'out_of_range', `is after ${names.end}`);
  return { from: start ? `${start}T00:00:00.000Z` : undefined, to: end ? `${end}T23:59:59.999Z` : undefined };
}

/** List recordings' cursor: bound to the organization, the bin, the date bounds, the recorder and the tags. */
export const recordingListCursor = keysetCursor<NumberedPosition, RecordingFilter>({
  // No list name first, unlike the other lists: the cursors issued before it keep their fingerprint.
  bindsTo: ({ orgId, bin, from, to, recordedBy, tagIds, tagMode }) => [orgId, bin, from, to, recordedBy, tagIds, tagMode],
  write: numberedPosition.write,
  read(fields) {
    const position = numberedPosition.read(fields);
    return position && RECORDING_SORT_KEY.test(position.after) ? position : undefined;
  },
  // A page ends on a recording inside the list's date bounds; a key outside them was not issued
  // for it (and would make the index read's BETWEEN bounds cross, which DynamoDB refuses).
  fits: ({ after }, { from, to }) => !(from && after < from) && !(to && after > `${to}#~`),
});

/** A recording's sort key in the lists: its ISO 8601 creation time (any offset), `#`, its id. */
const RECORDING_SORT_KEY = /^\d{4}-\d\d-\d\dT[0-9:.+Z-]{1,40}#[A-Za-z0-9_-]{1,64}$/;

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
 * cursor. The total comes from maintained counts when the filter has no tags (totalOf),
 * else from a COUNT over the filter (docs/data-model.md gives each cost). Page 1 and a cursor's page
 * read their own entries beside the total; a deeper page number needs the total first, to
 * read nothing past the end and to start where the page is (deepPage).
 */
export async function pageOfRecordings(db: TableContext, request: ListRequest): Promise<ListResult> {
  const { filter, limit } = request;
  const position = request.cursor ? recordingListCursor.decode(request.cursor, filter) : { after: undefined, page: request.page };
  const offset = request.cursor ? 0 : (request.page - 1) * limit;
  let total: number;
  let page: RecordingPage;
  if (offset === 0) {
    let counted: Total;
    [page, counted] = await Promise.all([readRecordingPage(db, filter, { offset, limit, after: position.after }), totalOf(db, filter)]);
    total = counted.total;
  } else {
    const counted = await totalOf(db, filter);
    total = counted.total;
    page = await deepPage(db, filter, { offset, limit }, counted);
  }
  const { recordings, lastSortKey, hasMore } = page;
  return {
    recordings,
    page: position.page,
    limit,
    total,
    nextCursor: hasMore && lastSortKey ? recordingListCursor.encode({ after: lastSortKey, page: position.page + 1 }, filter) : null,
  };
}

/**
 * A page past the first by number. Skipped index entries are read and billed, so the page is
 * read from the nearer end of the list (a page in its later half oldest first, then
 * reversed), and, when that would skip more than a page and the day counts cover the list
 * (`countedDays`), from the day that holds the page's first entry (counted from that end):
 * only entries of that one day are skipped, whatever the page number. Without them (tags, a
 * recorder, counts not yet rebuilt) the worst case skips half the list and the last page
 * skips none. Its entries, order, last sort key and whether more follow are the forward
 * read's, as long as the total is the list's length.
 */
async function deepPage(
  db: TableContext,
  filter: RecordingFilter,
  { offset, limit }: { offset: number; limit: number },
  { total, countedDays }: Total,
): Promise<RecordingPage> {
  if (offset >= total) return { recordings: [], lastSortKey: undefined, hasMore: false };
  const pageSize = Math.min(limit, total - offset);
  const fromEnd = total - offset - pageSize;
  const newestFirst = fromEnd >= offset;
  const skip = newestFirst ? offset : fromEnd;
  // Skipping up to a page costs no more than the page; the counts (a few queries) pay off beyond.
  const located =
    countedDays &&
    skip > limit &&
    (await dayOfPosition(db, filter.orgId, filter.bin, countedDays, skip, newestFirst ? 'newest' : 'oldest'));
  if (newestFirst)
    return readRecordingPage(db, filter, located ? { offset: offset - located.before, limit, toDay: located.day } : { offset, limit });
  const fromDay = located ? { fromEnd: fromEnd - located.before, fromDay: located.day } : { fromEnd };
  return { ...(await readRecordingPageFromEnd(db, filter, { ...fromDay, limit: pageSize })), hasMore: fromEnd > 0 };
}

/** A list's total, and the day range whose counts (complete) cover exactly the list, when they do. */
interface Total {
  total: number;
  countedDays?: DayRange;
}

/**
 * The list's total: the organization's counters without a filter, the recorder's membership
 * for one recorder's live list, the day and month counts for a date range of the whole
 * organization (read beside the organization, which says whether they are complete), and a
 * COUNT over the matches for anything else (tags, a recorder's range or trash). The day
 * counts cover the organization's whole list (either bin) and its date ranges, once complete.
 */
async function totalOf(db: TableContext, filter: RecordingFilter): Promise<Total> {
  const unbounded = !filter.from && !filter.to && !filter.tagIds?.length;
  if (unbounded && !filter.recordedBy) {
    const org = await getOrganization(db, filter.orgId);
    return {
      total: (filter.bin === 'LIVE' ? org?.recording_count : org?.trash_count) ?? 0,
      countedDays: org?.recording_days_index_at ? {} : undefined,
    };
  }
  // The recorder's membership counts only its live recordings.
  if (unbounded && filter.recordedBy && filter.bin === 'LIVE')
    return { total: (await getMembership(db, filter.orgId, filter.recordedBy))?.recording_count ?? 0 };
  const days = filter.tagIds?.length || filter.recordedBy ? undefined : wholeDays(filter.from, filter.to);
  if (days) {
    const [org, counted] = await Promise.all([
      getOrganization(db, filter.orgId),
      countRecordingsInDays(db, filter.orgId, filter.bin, days),
    ]);
    if (org?.recording_days_index_at) return { total: counted, countedDays: days };
  }
  return { total: await countMatching(db, filter) };
}

/** The user id behind recordedByEmail; undefined when no user has it (an empty list, not an error). */
export async function recorderIdByEmail(db: TableContext, email: string): Promise<string | undefined> {
  return findUserIdByEmail(db, email.trim().toLowerCase());
}

/**
 * The organization's List recordings: query parameters to a filter (UTC days, tags, the
 * recorder by id or email, the trash for admins), then a page by number or cursor.
 */
export async function listRecordings(db: TableContext, caller: Caller, query: ListRecordingsQuery) {
  const page = query.page ?? 1;
  if (query.page !== undefined && query.cursor)
    throw ValidationError.field('page', 'invalid', 'cannot be combined with cursor (the cursor knows its page)');
  if (query.recordedBy && query.recordedByEmail)
    throw ValidationError.field('recordedBy', 'invalid', 'cannot be combined with recordedByEmail');
  const trash = query.deleted === 'true';
  if (trash) requireCallerAccess(caller, 'admin', 'recordings:write', 'Listing the trash');
  const { from, to } = dayBounds(query);
  const recordedBy = query.recordedByEmail ? await recorderIdByEmail(db, query.recordedByEmail) : query.recordedBy;
  const limit = query.limit;
  if (query.recordedByEmail && !recordedBy) {
    return { recordings: [], pagination: { page, limit, total: 0, next_cursor: null } };
  }
  const result = await pageOfRecordings(db, {
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
