import { QueryCommand } from '@aws-sdk/lib-dynamodb';
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
 * recording in it (docs/data-model.md, "Recording day counts").
 */

/** `YYYY-MM-DD` of an ISO timestamp (created_at is stored in UTC, `…Z`). */
const dayOf = (timestamp: string) => timestamp.slice(0, 10);
const monthOf = (day: string) => day.slice(0, 7);

/**
 * The two updates that move the counts of a recording's day and month by its bins' moves,
 * for the transaction that moves the organization's counters. ADD creates a count on its
 * first move.
 */
export function recordingDayCountParts(db: TableContext, orgId: string, createdAt: string, move: { live: number; trash: number }): TransactItem[] {
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
  return number === 12 ? `${String(year + 1).padStart(4, '0')}-01` : `${String(year).padStart(4, '0')}-${String(number + 1).padStart(2, '0')}`;
};
const previousMonth = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return number === 1 ? `${String(year - 1).padStart(4, '0')}-12` : `${String(year).padStart(4, '0')}-${String(number - 1).padStart(2, '0')}`;
};
const lastDayOf = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(year, number, 0)).getUTCDate()).padStart(2, '0')}`;
};

/** The count items a day range reads: the full months it spans, and the days outside them at either end. */
export function countItemRanges({ fromDay, toDay }: DayRange): { months?: [string, string]; days: [string, string][] } {
  const firstFullMonth = fromDay === undefined ? '0000-01' : fromDay.endsWith('-01') ? monthOf(fromDay) : nextMonth(monthOf(fromDay));
  const lastFullMonth = toDay === undefined ? '9999-12' : toDay === lastDayOf(monthOf(toDay)) ? monthOf(toDay) : previousMonth(monthOf(toDay));
  if (firstFullMonth > lastFullMonth) return { days: [[fromDay ?? '0000-01-01', toDay ?? '9999-12-31']] };
  const days: [string, string][] = [];
  if (fromDay !== undefined && monthOf(fromDay) < firstFullMonth) days.push([fromDay, lastDayOf(monthOf(fromDay))]);
  if (toDay !== undefined && monthOf(toDay) > lastFullMonth) days.push([`${monthOf(toDay)}-01`, toDay]);
  return { months: [firstFullMonth, lastFullMonth], days };
}

/**
 * How many recordings of a bin were created in a day range, from the counts: at most three
 * queries, sent together (full months, and the days at each end).
 */
export async function countRecordingsInDays(db: TableContext, orgId: string, bin: RecordingBin, range: DayRange): Promise<number> {
  const { months, days } = countItemRanges(range);
  const attribute = bin === 'LIVE' ? 'live' : 'trash';
  const sum = async (first: Record<string, string>, last: Record<string, string>) => {
    let total = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.client.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :last',
          ExpressionAttributeValues: { ':pk': first.PK, ':first': first.SK, ':last': last.SK },
          ProjectionExpression: '#count',
          ExpressionAttributeNames: { '#count': attribute },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) total += itemFields(item, 'recording count').optionalNumber(attribute) ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return total;
  };
  const parts = await Promise.all([
    ...(months ? [sum(keys.recordingMonthCount(orgId, months[0]), keys.recordingMonthCount(orgId, months[1]))] : []),
    ...days.map(([first, last]) => sum(keys.recordingDayCount(orgId, first), keys.recordingDayCount(orgId, last))),
  ]);
  return parts.reduce((total, part) => total + part, 0);
}

/**
 * Counts an organization's recordings again from its recordings index (both bins), replaces
 * its day and month counts and marks them complete on the organization. For organizations
 * created before the counts existed (`voice-org reindex`, the fixture loader); recording
 * changes while it runs may be miscounted, so run it when the organization is quiet.
 */
export async function rebuildRecordingDayCounts(db: TableContext, orgId: string, now: string): Promise<{ recordings: number; items: number }> {
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
    ...stored.map((item) => String(item.SK)).filter((SK) => !counts.has(SK)).map((SK) => ({ DeleteRequest: { Key: { PK: partition, SK } } })),
  ];
  await batchWriteAll(db, requests);
  await markDerivedIndexComplete(db, orgId, 'recording_days_index_at', now);
  return { recordings, items: counts.size };
}
