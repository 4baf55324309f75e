import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { batchGetAll } from './query-all';
import { IndexEntry, merged, RecordingFilter, sources } from './recording-index';
import { recordingFromItem, type Recording } from './recording-items';

/** One page of recordings, and where it ended. */
export interface RecordingPage {
  /** Newest first; a recording deleted between the index read and its own read is left out. */
  recordings: Recording[];
  /** The sort key of the page's last entry: a later page starts strictly after it. */
  lastSortKey: string | undefined;
  hasMore: boolean;
}

/**
 * One page of recordings: after `offset` entries, or strictly after a sort key a previous
 * page ended on, `limit` recordings plus whether more follow. Reads are in proportion to
 * offset + limit (plus what filter expressions discard); the recordings that tag links
 * name come in one BatchGetItem. With `toDay` the read starts at the end of that UTC day:
 * `offset` then counts entries of that day only (the caller knows, from the day counts,
 * how many of the list come after it).
 */
export async function readRecordingPage(
  db: TableContext,
  filter: RecordingFilter,
  { offset, limit, after, toDay }: { offset: number; limit: number; after?: string; toDay?: string },
): Promise<RecordingPage> {
  const entries: IndexEntry[] = [];
  let skipped = 0;
  let hasMore = false;
  // The skipped entries, the page, one more to know if more follow, and the cursor's own
  // entry (its bound is inclusive, see sources()).
  const wanted = offset + limit + 1 + (after ? 1 : 0);
  for await (const entry of merged(db, sources(filter, after, { toDay }), wanted, after)) {
    if (skipped < offset) {
      skipped++;
      continue;
    }
    if (entries.length === limit) {
      hasMore = true;
      break;
    }
    entries.push(entry);
  }
  return { recordings: await recordingsOf(db, filter.orgId, entries), lastSortKey: entries.at(-1)?.sortKey, hasMore };
}

/**
 * A page counted from the list's end: the `limit` entries that come after the oldest
 * `fromEnd` ones (read oldest first, so only those `fromEnd` are skipped), newest first.
 * The caller knows the list's total and so whether more follow (`fromEnd > 0`); with
 * `fromEnd = total - offset - limit` it is the page readRecordingPage answers for `offset`.
 * For deep page numbers: the last page skips nothing. With `fromDay` the read starts at the
 * start of that UTC day: `fromEnd` then counts entries of that day only.
 */
export async function readRecordingPageFromEnd(
  db: TableContext,
  filter: RecordingFilter,
  { fromEnd, limit, fromDay }: { fromEnd: number; limit: number; fromDay?: string },
): Promise<Omit<RecordingPage, 'hasMore'>> {
  const entries: IndexEntry[] = [];
  let skipped = 0;
  for await (const entry of merged(db, sources(filter, undefined, { fromDay }), fromEnd + limit, undefined, 'oldest')) {
    if (skipped < fromEnd) {
      skipped++;
      continue;
    }
    entries.push(entry);
    if (entries.length === limit) break;
  }
  entries.reverse();
  return { recordings: await recordingsOf(db, filter.orgId, entries), lastSortKey: entries.at(-1)?.sortKey };
}

/** The recordings of index entries in their order: link entries' recordings come in one BatchGetItem; a recording gone meanwhile is left out. */
export async function recordingsOf(db: TableContext, orgId: string, entries: IndexEntry[]): Promise<Recording[]> {
  const named = entries.filter((entry) => !entry.recording).map((entry) => entry.recordingId);
  const fetched = new Map((await getRecordings(db, orgId, named)).map((recording) => [recording.id, recording]));
  return entries.flatMap((entry) => {
    const recording = entry.recording ?? fetched.get(entry.recordingId);
    return recording ? [recording] : [];
  });
}

/** Recordings by id, in one BatchGetItem per 100 ids; unknown ids are left out. */
export async function getRecordings(db: TableContext, orgId: string, recordingIds: string[]): Promise<Recording[]> {
  if (!recordingIds.length) return [];
  return (
    await batchGetAll(
      db,
      recordingIds.map((id) => keys.recording(orgId, id)),
    )
  ).map(recordingFromItem);
}

/**
 * How many recordings match a filter, for filters no maintained counter answers: COUNT
 * queries for one source (reading every match), distinct keys across sources for
 * tagMode=any over several tags.
 */
export async function countMatching(db: TableContext, filter: RecordingFilter): Promise<number> {
  const all = sources(filter);
  if (all.length > 1) {
    let count = 0;
    for await (const _entry of merged(
      db,
      all.map((s) => ({ ...s, input: { ...s.input, ProjectionExpression: 'SK, recording_id' } })),
      Number.MAX_SAFE_INTEGER,
    ))
      count++;
    return count;
  }
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({ ...all[0].input, TableName: db.tableName, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}
