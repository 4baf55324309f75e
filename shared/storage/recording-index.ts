import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, type RecordingBin } from './keys';
import { recordingFromItem, type Recording } from './recording-items';

/**
 * Which recordings a list asks for. Every source below yields them newest first by the
 * sort key `<created_at>#<id>`, so pages, cursors and merges all work on that one key.
 */
export interface RecordingFilter {
  orgId: string;
  bin: RecordingBin;
  /** Inclusive bounds on created_at (ISO timestamps). */
  from?: string;
  to?: string;
  recordedBy?: string;
  tagIds?: string[];
  tagMode: 'any' | 'all';
}

/** One entry of a list: its sort key, its recording id, and the recording when the index holds it. */
export interface IndexEntry {
  sortKey: string;
  recordingId: string;
  recording?: Recording;
}

interface Source {
  input: Omit<QueryCommandInput, 'TableName'>;
  sortKeyAttribute: string;
  /** Link items name their recording; index items are the recording. */
  holdsRecording: boolean;
}

/**
 * The queries that answer a filter, read newest first:
 * - tags on live recordings: the tag link partitions (one per tag for `any`, merged;
 *   the first tag's links filtered on the others for `all`);
 * - a recorder: GSI2 (the recorder's recordings); otherwise GSI1 (the org's);
 * - created_at bounds become a key condition on the sort key (never a filter);
 * - remaining conditions (recorder with tags; tags in the trash) are filter expressions.
 */
export function sources(filter: RecordingFilter, after?: string, within: DayBound = {}): Source[] {
  // Every entry of a UTC day D sorts between `DT` and `DT~` (created_at is an ISO timestamp: the day, `T`, then digits, `:`, `.`, `Z`, `+` or `-`).
  const lower = laterOf(filter.from, within.fromDay && `${within.fromDay}T`);
  // A cursor continues strictly below its sort key; BETWEEN is inclusive, so the one
  // entry equal to the cursor is dropped when read.
  const upper = earlierOf(earlierOf(filter.to && `${filter.to}#~`, within.toDay && `${within.toDay}T~`), after);
  const range = (attribute: string) => {
    if (lower && upper) return { condition: ` AND ${attribute} BETWEEN :lower AND :upper`, values: { ':lower': lower, ':upper': upper } };
    if (lower) return { condition: ` AND ${attribute} >= :lower`, values: { ':lower': lower } };
    if (upper) return { condition: ` AND ${attribute} <= :upper`, values: { ':upper': upper } };
    return { condition: '', values: {} };
  };
  const filters: string[] = [];
  const values: Record<string, unknown> = {};
  const tagIds = filter.tagIds ?? [];

  if (tagIds.length && filter.bin === 'LIVE') {
    if (filter.recordedBy) {
      filters.push('recorded_by = :recorder');
      values[':recorder'] = filter.recordedBy;
    }
    const linkQuery = (tagId: string, extraFilters: string[], extraValues: Record<string, unknown>): Source => {
      const { condition, values: rangeValues } = range('SK');
      const allFilters = [...filters, ...extraFilters];
      return {
        input: {
          KeyConditionExpression: `PK = :pk${condition}`,
          ExpressionAttributeValues: { ':pk': keys.recordingTagLink(filter.orgId, tagId).PK, ...rangeValues, ...values, ...extraValues },
          ...(allFilters.length ? { FilterExpression: allFilters.join(' AND ') } : {}),
        },
        sortKeyAttribute: 'SK',
        holdsRecording: false,
      };
    };
    if (filter.tagMode === 'any') return tagIds.map((tagId) => linkQuery(tagId, [], {}));
    const [first, ...others] = tagIds;
    return [
      linkQuery(
        first,
        others.map((_, i) => `contains(tags, :tag${i})`),
        Object.fromEntries(others.map((tag, i) => [`:tag${i}`, tag])),
      ),
    ];
  }

  if (tagIds.length) {
    // The trash has no tag links (it is small and rarely filtered): filter its index.
    const tagConditions = tagIds.map((tag, i) => {
      values[`:tag${i}`] = tag;
      return `contains(tags, :tag${i})`;
    });
    filters.push(`(${tagConditions.join(filter.tagMode === 'all' ? ' AND ' : ' OR ')})`);
  }
  const index = filter.recordedBy ? 'GSI2' : 'GSI1';
  const partition = filter.recordedBy
    ? keys.recorderRecordingsIndex(filter.orgId, filter.recordedBy, filter.bin).GSI2PK
    : keys.recordingsIndex(filter.orgId, filter.bin).GSI1PK;
  const { condition, values: rangeValues } = range(`${index}SK`);
  return [
    {
      input: {
        IndexName: index,
        KeyConditionExpression: `${index}PK = :pk${condition}`,
        ExpressionAttributeValues: { ':pk': partition, ...rangeValues, ...values },
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      },
      sortKeyAttribute: `${index}SK`,
      holdsRecording: true,
    },
  ];
}

/**
 * Where a read by page number starts, from the day counts (shared/storage/recording-day-counts.ts):
 * newest first from the end of `toDay`, or oldest first from the start of `fromDay`, so the
 * entries of later (earlier) days are neither read nor billed.
 */
export interface DayBound {
  toDay?: string;
  fromDay?: string;
}

const earlierOf = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);
const laterOf = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);

/** The string attribute an index or link item must carry (every writer sets it). */
function stringAttribute(item: Record<string, unknown>, name: string): string {
  const value = item[name];
  if (typeof value !== 'string') throw new Error(`Index item ${String(item.PK)}|${String(item.SK)} has no ${name}`);
  return value;
}

/** Which end of the list a read starts from: newest first (the list's order), or oldest first (a deep page read from the end). */
type ReadDirection = 'newest' | 'oldest';

/**
 * Entries of one source, newest first (or oldest first). Each query asks for what is still
 * `wanted` (at most 1,000; more when a filter expression drops entries), so a page never
 * reads far past its end.
 */
async function* readSource(
  db: TableContext,
  source: Source,
  wanted: number,
  after?: string,
  direction: ReadDirection = 'newest',
): AsyncGenerator<IndexEntry> {
  let startKey: Record<string, unknown> | undefined;
  let read = 0;
  do {
    const remaining = Math.max(1, wanted - read);
    // A filter expression drops some of what a query reads: ask for more per round trip.
    const limit = Math.min(1000, source.input.FilterExpression ? Math.max(100, remaining * 2) : remaining);
    const page = await db.client.send(
      new QueryCommand({
        ...source.input,
        TableName: db.tableName,
        ScanIndexForward: direction === 'oldest',
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    read += page.Items?.length ?? 0;
    for (const item of page.Items ?? []) {
      const sortKey = stringAttribute(item, source.sortKeyAttribute);
      if (after && sortKey >= after) continue;
      if (source.holdsRecording) {
        const recording = recordingFromItem(item);
        yield { sortKey, recordingId: recording.id, recording };
      } else {
        yield { sortKey, recordingId: stringAttribute(item, 'recording_id') };
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/**
 * Merges sources newest first (or oldest first); a recording under several tags appears
 * once (its links share one sort key, so they come out side by side).
 */
export async function* merged(
  db: TableContext,
  all: Source[],
  wanted: number,
  after?: string,
  direction: ReadDirection = 'newest',
): AsyncGenerator<IndexEntry> {
  if (all.length === 1) {
    yield* readSource(db, all[0], wanted, after, direction);
    return;
  }
  const comesFirst = (a: string, b: string) => (direction === 'newest' ? a > b : a < b);
  const iterators = all.map((source) => readSource(db, source, wanted, after, direction));
  const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
  let last: string | undefined;
  for (;;) {
    let best: { index: number; entry: IndexEntry } | undefined;
    for (const [index, head] of heads.entries()) {
      if (!head.done && (!best || comesFirst(head.value.sortKey, best.entry.sortKey))) best = { index, entry: head.value };
    }
    if (!best) return;
    heads[best.index] = await iterators[best.index].next();
    if (best.entry.sortKey === last) continue;
    last = best.entry.sortKey;
    yield best.entry;
  }
}
