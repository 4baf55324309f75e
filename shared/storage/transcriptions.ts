import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { batchWriteAll, queryAll } from './query-all';
import type { Recording } from './recording-items';
import { chunkSegments, transcriptChunkPart, type TranscriptHeader, type TranscriptSegment } from './recording-part-items';
import { recordingPutAsRead } from './recording-writes';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';
import { transcriptionUsageParts } from './transcription-usage';
import { partsFromItems } from './recordings';

/**
 * A recording's transcription as items (docs/data-model.md): the recording's `transcription`
 * attempt, the watch item the sweeper reads instead of scanning, the transcript's header and
 * chunks, and the usage counters a completion moves. The domain plans each transition; this
 * module commits it in one transaction whose failed condition is a WriteConflict naming it.
 */

/** What the sweeper finds in a watch item. */
export interface TranscriptionWatch {
  due_at: string;
  org_id: string;
  recording_id: string;
  attempt: number;
}

export function transcriptionWatchFromItem(item: Record<string, unknown>): TranscriptionWatch {
  const fields = itemFields(item, 'transcription watch');
  return {
    due_at: fields.string('due_at'),
    org_id: fields.string('org_id'),
    recording_id: fields.string('recording_id'),
    attempt: fields.number('attempt'),
  };
}

/** One transition of a recording's transcription, planned by the domain. */
export interface TranscriptionTransition {
  /** The recording as read: the write relies on its `updated_at` and bin still being these. */
  before: Recording;
  /** The recording to store (restamped `updated_at`). */
  after: Recording;
  /** The watch item to remove (its due time) and the one to set, if any. */
  watch?: { remove?: string; set?: string };
  /** A completion's billed minutes, added to the recorder's and the organization's month. */
  usage?: { month: string; minutes: number };
  /** A completion's transcript header, pointing to the chunk set written before the commit. */
  transcriptHeader?: TranscriptHeader;
}

export type TranscriptionPart = 'recording' | 'watch' | 'usage' | 'transcript';

/**
 * Commits a transition all-or-nothing: the recording (only while it is unchanged since read,
 * in the same bin), its watch item moved, the usage counters (ADD: concurrent completions
 * never lose a count) and the transcript header. A redelivered completion finds the
 * recording changed (its `updated_at` moved), so it never counts twice.
 */
export async function commitTranscriptionTransition(db: TableContext, transition: TranscriptionTransition): Promise<void> {
  const { before, after } = transition;
  const put = (Item: Record<string, unknown>): TransactItem => ({ Put: { TableName: db.tableName, Item } });
  const inTrash = before.deleted_at !== undefined;
  const parts: TransactionPart<TranscriptionPart>[] = [
    { name: 'recording', write: recordingPutAsRead(db, before, after, inTrash ? 'TRASH' : 'LIVE') },
  ];
  const { org_id: orgId, id } = after;
  const watch = transition.watch;
  if (watch?.remove !== undefined && watch.remove !== watch.set) {
    parts.push({ name: 'watch', write: { Delete: { TableName: db.tableName, Key: keys.transcriptionWatch(watch.remove, orgId, id) } } });
  }
  if (watch?.set !== undefined && watch.set !== watch.remove) {
    const attempt = after.transcription?.attempt ?? 0;
    parts.push({
      name: 'watch',
      write: put({ ...keys.transcriptionWatch(watch.set, orgId, id), due_at: watch.set, org_id: orgId, recording_id: id, attempt }),
    });
  }
  if (transition.usage && transition.usage.minutes > 0) {
    parts.push(
      ...transcriptionUsageParts(db, orgId, after.recorded_by, transition.usage).map((write) => ({ name: 'usage' as const, write })),
    );
  }
  if (transition.transcriptHeader)
    parts.push({ name: 'transcript', write: put({ ...keys.recordingPart(orgId, id, 'TRANSCRIPT'), ...transition.transcriptHeader }) });
  await commitParts(db, parts);
}

/**
 * Writes a transcript's segments as the chunk items of one set (before the header that points
 * to them is committed: a transcript of 4 hours is several chunks, more than one transaction
 * carries). Returns how many chunks.
 */
export async function writeTranscriptChunks(
  db: TableContext,
  orgId: string,
  recordingId: string,
  chunkSet: number,
  segments: TranscriptSegment[],
): Promise<number> {
  const chunks = chunkSegments(segments);
  await batchWriteAll(
    db,
    chunks.map((chunk, index) => ({
      PutRequest: { Item: { ...keys.recordingPart(orgId, recordingId, transcriptChunkPart(index + 1, chunkSet)), segments: chunk } },
    })),
  );
  return chunks.length;
}

/** Which chunks to delete: every set but one (a re-run committed), one set (a discarded run), or all (the recording is gone). */
export type ChunkSelection = { keepSet: number } | { onlySet: number } | 'all';

/** Deletes a recording's transcript chunks as selected. Idempotent. */
export async function deleteTranscriptChunks(db: TableContext, orgId: string, recordingId: string, which: ChunkSelection): Promise<number> {
  const base = keys.recordingPart(orgId, recordingId, 'TRANSCRIPT#');
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': base.PK, ':prefix': base.SK },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  const setPrefix = (set: number) => `${base.SK}${String(set).padStart(4, '0')}#`;
  const doomed = items
    .map((item) => String(item.SK))
    .filter((sk) =>
      which === 'all' ? true : 'keepSet' in which ? !sk.startsWith(setPrefix(which.keepSet)) : sk.startsWith(setPrefix(which.onlySet)),
    );
  await batchWriteAll(
    db,
    doomed.map((SK) => ({ DeleteRequest: { Key: { PK: base.PK, SK } } })),
  );
  return doomed.length;
}

/** The watch items due at `now` or before, oldest first: at most `limit` of them. */
export async function dueTranscriptionWatches(db: TableContext, now: string, limit: number): Promise<TranscriptionWatch[]> {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND SK <= :now',
      ExpressionAttributeValues: { ':pk': keys.transcriptionWatchPartition, ':now': `${now}#~` },
      Limit: limit,
    }),
  );
  return (Items ?? []).map(transcriptionWatchFromItem);
}

/** Removes a watch item whose recording is gone (deleted for good): nothing else is left to move. */
export async function removeTranscriptionWatch(
  db: TableContext,
  watch: Pick<TranscriptionWatch, 'due_at' | 'org_id' | 'recording_id'>,
): Promise<void> {
  await batchWriteAll(db, [{ DeleteRequest: { Key: keys.transcriptionWatch(watch.due_at, watch.org_id, watch.recording_id) } }]);
}

/** A recording's transcript segments (the header's chunk set), or undefined without a transcript: one Query of the transcript's items. */
export async function readTranscriptSegments(
  db: TableContext,
  orgId: string,
  recordingId: string,
): Promise<TranscriptSegment[] | undefined> {
  const base = keys.recording(orgId, recordingId);
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': base.PK, ':from': `${base.SK}#TRANSCRIPT`, ':to': `${base.SK}#TRANSCRIPT#~` },
    ConsistentRead: true,
  });
  return partsFromItems(items, base.SK).transcript?.segments;
}
