import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys, type RecordingBin } from './keys';
import { markDerivedIndexComplete } from './organizations';
import { batchWriteAll, queryAll } from './query-all';
import type { TransactItem } from './transactions';

/*
 * Recording counts by UTC day and month of created_at, per bin (live, trash), moved in the
 * same transaction as the organization's counters. The total of a date range of List
 * recordings (whole UTC days) is the sum of the full months it spans and of the days at
 * its two ends: a one-year range reads at most 12 + 2 × 30 items instead of every
 * recording in it. The same counts say on which day any position of the list falls, so a
 * deep page number skips only entries of one day (docs/data-model.md, "Recording day counts").
 */

/** `YYYY-MM-DD` of an ISO timestamp (created_at is stored in UTC, `…Z`). */
const dayOf = (timestamp: string) => timestamp.slice(0, 10);
const monthOf = (day: string) => day.slice(0, 7);

/**
 * The two updates that move the counts of a recording's day and month by its bins' moves,
 * for the transaction that moves the organization's counters. ADD creates a count on its
 * first move.
 */
export function recordingDayCountParts(
  db: TableContext,
  orgId: string,
  createdAt: string,
  move: { live: number; trash: number },
): TransactItem[] {
  const day = dayOf(createdAt);
  return [keys.recordingDayCount(orgId, day), keys.recordingMonthCount(orgId, monthOf(day))].map((Key) => ({
    Update: {
      TableName: db.tableName,
      Key,
      UpdateExpression: 'ADD #live :live, #trash :trash',
      ExpressionAttributeNames: { '#live': 'live', '#trash': 'trash' },
      ExpressionAttributeValues: { ':live': move.live, ':trash': move.trash },
    },
  }));
}

/** An inclusive range of whole UTC days; an open end runs to the first or last recording. */
export interface DayRange {
  fromDay?: string;
  toDay?: string;
}

/**
 * The days of a filter's created_at bounds, when they are whole UTC days (as the list's
 * date parameters make them); undefined for bounds within a day, which counts cannot answer.
 */
export function wholeDays(from: string | undefined, to: string | undefined): DayRange | undefined {
  if (from !== undefined && !/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(from)) return undefined;
  if (to !== undefined && !/^\d{4}-\d{2}-\d{2}T23:59:59\.999Z$/.test(to)) return undefined;
  return { fromDay: from && dayOf(from), toDay: to && dayOf(to) };
}

const nextMonth = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return number === 12
    ? `${String(year + 1).padStart(4, '0')}-01`
    : `${String(year).padStart(4, '0')}-${String(number + 1).padStart(2, '0')}`;
};
const previousMonth = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return number === 1
    ? `${String(year - 1).padStart(4, '0')}-12`
    : `${String(year).padStart(4, '0')}-${String(number - 1).padStart(2, '0')}`;
};
const lastDayOf = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(year, number, 0)).getUTCDate()).padStart(2, '0')}`;
};

/** The count items a day range reads: the full months it spans, and the days outside them at either end. */
export function countItemRanges({ fromDay, toDay }: DayRange): { months?: [string, string]; days: [string, string][] } {
  const firstFullMonth = fromDay === undefined ? '0000-01' : fromDay.endsWith('-01') ? monthOf(fromDay) : nextMonth(monthOf(fromDay));
  const lastFullMonth =
    toDay === undefined ? '9999-12' : toDay === lastDayOf(monthOf(toDay)) ? monthOf(toDay) : previousMonth(monthOf(toDay));
  if (firstFullMonth > lastFullMonth) return { days: [[fromDay ?? '0000-01-01', toDay ?? '9999-12-31']] };
  const days: [string, string][] = [];
  if (fromDay !== undefined && monthOf(fromDay) < firstFullMonth) days.push([fromDay, lastDayOf(monthOf(fromDay))]);
  if (toDay !== undefined && monthOf(toDay) > lastFullMonth) days.push([`${monthOf(toDay)}-01`, toDay]);
  return { months: [firstFullMonth, lastFullMonth], days };
}

/** One count item as read: the day (`YYYY-MM-DD`) or month (`YYYY-MM`) it counts, and its count in one bin. */
interface PeriodCount {
  period: string;
  count: number;
}

/** The count items of one partition between two keys (inclusive), in key order: one Query, paged past 1 MB. */
async function readCounts(
  db: TableContext,
  bin: RecordingBin,
  first: Record<string, string>,
  last: Record<string, string>,
): Promise<PeriodCount[]> {
  const attribute = bin === 'LIVE' ? 'live' : 'trash';
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': first.PK, ':first': first.SK, ':last': last.SK },
    ProjectionExpression: 'SK, #count',
    ExpressionAttributeNames: { '#count': attribute },
  });
  return items.map((item) => {
    const fields = itemFields(item, 'recording count');
    // A count never goes below 0 when its moves commit with the recordings; a corrupt one must not move a position backwards.
    return { period: fields.string('SK').replace(/^(DAY|MONTH)#/, ''), count: Math.max(0, fields.optionalNumber(attribute) ?? 0) };
  });
}

/**
 * How many recordings of a bin were created in a day range, from the counts: at most three
 * queries, sent together (full months, and the days at each end).
 */
export async function countRecordingsInDays(db: TableContext, orgId: string, bin: RecordingBin, range: DayRange): Promise<number> {
  const periods = await periodCounts(db, orgId, bin, range);
  return periods.reduce((total, { count }) => total + count, 0);
}

/** The counts of a range's full months and of the days at its ends, oldest first (the periods do not overlap). */
async function periodCounts(db: TableContext, orgId: string, bin: RecordingBin, range: DayRange): Promise<PeriodCount[]> {
  const { months, days } = countItemRanges(range);
  const parts = await Promise.all([
    ...(months ? [readCounts(db, bin, keys.recordingMonthCount(orgId, months[0]), keys.recordingMonthCount(orgId, months[1]))] : []),
    ...days.map(([first, last]) => readCounts(db, bin, keys.recordingDayCount(orgId, first), keys.recordingDayCount(orgId, last))),
  ]);
  // A month (`YYYY-MM`) and an end day (`YYYY-MM-DD`) are never of the same month, so text order is time order.
  return parts.flat().sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
}

/** Where a position of a list falls: the UTC day that holds it, and how many of the list's entries lie beyond that day on the side counted from. */
export interface DayOfPosition {
  day: string;
  before: number;
}

/**
 * The UTC day that holds the entry at `position` (0-based) of a bin's list in a day range,
 * counted from its newest or its oldest end, from the counts alone: the range's months and
 * end days (at most three queries, sent together), then the days of the month the position
 * falls in (one query of at most 31 items). A page read then starts at that day and skips
 * only entries of that day (docs/data-model.md, "Recording day counts"). Undefined when the
 * counts hold fewer entries than the position (they disagree with the total read): the
 * caller reads as it would without them.
 */
export async function dayOfPosition(
  db: TableContext,
  orgId: string,
  bin: RecordingBin,
  range: DayRange,
  position: number,
  from: 'newest' | 'oldest',
): Promise<DayOfPosition | undefined> {
  const inOrder = (periods: PeriodCount[]) => (from === 'newest' ? [...periods].reverse() : periods);
  const find = (periods: PeriodCount[], before: number) => {
    for (const period of inOrder(periods)) {
      if (position < before + period.count) return { period: period.period, before };
      before += period.count;
    }
    return undefined;
  };
  const found = find(await periodCounts(db, orgId, bin, range), 0);
  if (!found || found.period.length === 10) return found && { day: found.period, before: found.before };
  const days = await readCounts(
    db,
    bin,
    keys.recordingDayCount(orgId, `${found.period}-01`),
    keys.recordingDayCount(orgId, `${found.period}-31`),
  );
  const day = find(days, found.before);
  return day && { day: day.period, before: day.before };
}

/**
 * Counts an organization's recordings again from its recordings index (both bins), replaces
 * its day and month counts and marks them complete on the organization. For organizations
 * created before the counts existed (`voice-org reindex`, the fixture loader); recording
 * changes while it runs may be miscounted, so run it when the organization is quiet.
 */
export async function rebuildRecordingDayCounts(
  db: TableContext,
  orgId: string,
  now: string,
): Promise<{ recordings: number; items: number }> {
  const counts = new Map<string, { live: number; trash: number }>();
  const tally = (SK: string, bin: RecordingBin) => {
    const entry = counts.get(SK) ?? counts.set(SK, { live: 0, trash: 0 }).get(SK)!;
    entry[bin === 'LIVE' ? 'live' : 'trash']++;
  };
  let recordings = 0;
  const bins: RecordingBin[] = ['LIVE', 'TRASH'];
  const [stored, ...entries] = await Promise.all([
    queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.recordingDayCount(orgId, '').PK },
      ProjectionExpression: 'SK',
    }),
    ...bins.map((bin) =>
      queryAll(db, {
        TableName: db.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recordingsIndex(orgId, bin).GSI1PK },
        ProjectionExpression: 'GSI1SK',
      }),
    ),
  ]);
  bins.forEach((bin, index) => {
    for (const item of entries[index]) {
      const day = dayOf(itemFields(item, 'recording index entry').string('GSI1SK'));
      tally(keys.recordingDayCount(orgId, day).SK, bin);
      tally(keys.recordingMonthCount(orgId, monthOf(day)).SK, bin);
      recordings++;
    }
  });
  const partition = keys.recordingDayCount(orgId, '').PK;
  const requests = [
    ...[...counts].map(([SK, count]) => ({ PutRequest: { Item: { PK: partition, SK, ...count } } })),
    ...stored
      .map((item) => String(item.SK))
      .filter((SK) => !counts.has(SK))
      .map((SK) => ({ DeleteRequest: { Key: { PK: partition, SK } } })),
  ];
  await batchWriteAll(db, requests);
  await markDerivedIndexComplete(db, orgId, 'recording_days_index_at', now);
  return { recordings, items: counts.size };
}
