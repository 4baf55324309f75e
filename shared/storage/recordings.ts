import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { keys } from './keys';
import { queryAll } from './query-all';
import { recordingFromItem, type Recording } from './recording-items';
import {
  actionItemsFromItem,
  summaryFromItem,
  transcriptChunkFromItem,
  transcriptHeaderFromItem,
  translationFromItem,
  type RecordingParts,
  type TranscriptSegment,
} from './recording-part-items';
import { isConditionFailure } from './transactions';
import { deleteAllTranslations } from './translations';
import { sendUntilProcessed } from './write-retries';

/** Reads a recording item; `consistent` when the read must see a write that was just acknowledged. */
export async function getRecording(
  db: TableContext,
  orgId: string,
  recordingId: string,
  options: { consistent?: boolean } = {},
): Promise<Recording | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({
      TableName: db.tableName,
      Key: keys.recording(orgId, recordingId),
      ...(options.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return Item ? recordingFromItem(Item) : undefined;
}

/** What the upload completion found for a pending recording's object. */
export interface UploadOutcome {
  state: 'uploaded' | 'failed';
  uploadedBytes: number;
  /** Undefined when the object was gone before its type could be read. */
  uploadedContentType?: string;
  uploadedAt: string;
  /** Set with state `failed`: why the object is not the declared one. */
  error?: string;
}

/**
 * Records an upload's outcome on its recording in one conditional UpdateItem, only while the
 * recording still waits for that upload as it was read (pending, same object key, same declared
 * size and type). Counts do not move: a recording counts whatever its state. Returns false when
 * the recording no longer waits (completed by an earlier event, or deleted).
 */
export async function recordUploadOutcome(
  db: TableContext,
  pending: Recording & { upload: NonNullable<Recording['upload']> },
  outcome: UploadOutcome,
): Promise<boolean> {
  const set = [
    '#state = :state',
    'upload.uploaded_bytes = :bytes',
    'upload.uploaded_at = :at',
    'updated_at = :at',
    'last_change = :change',
  ];
  const values: Record<string, unknown> = {
    ':change': changeStamp().last_change,
    ':state': outcome.state,
    ':bytes': outcome.uploadedBytes,
    ':at': outcome.uploadedAt,
    ':pending': 'pending_upload',
    ':key': pending.upload.s3_key,
    ':declaredBytes': pending.upload.size_bytes,
    ':declaredType': pending.upload.content_type,
  };
  if (outcome.uploadedContentType !== undefined) {
    set.push('upload.uploaded_content_type = :type');
    values[':type'] = outcome.uploadedContentType;
  }
  if (outcome.error !== undefined) {
    set.push('upload_error = :error');
    values[':error'] = outcome.error;
  }
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.recording(pending.org_id, pending.id),
        UpdateExpression: `SET ${set.join(', ')}`,
        ConditionExpression:
          '#state = :pending AND upload.s3_key = :key AND upload.size_bytes = :declaredBytes AND upload.content_type = :declaredType',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * A recording and every related item but its summaries' (docs/summaries.md: up to 20 items a
 * reader picks from the recording's digest), in two queries over its key range sent together:
 * from the recording to the fixtures' `SUMMARY` part, and from past the `SUMMARY#<id>` items on.
 */
export async function getRecordingWithParts(
  db: TableContext,
  orgId: string,
  recordingId: string,
): Promise<{ recording?: Recording; parts: RecordingParts }> {
  const base = keys.recording(orgId, recordingId);
  const range = (from: string, to: string) =>
    queryAll(db, {
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': base.PK, ':from': from, ':to': to },
    });
  // '$' sorts right after '#': the second range starts past every `SUMMARY#…` item.
  const [head, tail] = await Promise.all([range(base.SK, `${base.SK}#SUMMARY`), range(`${base.SK}#SUMMARY$`, `${base.SK}#~`)]);
  const items = [...head, ...tail];
  const recordingRow = items.find((item) => item.SK === base.SK);
  return { recording: recordingRow && recordingFromItem(recordingRow), parts: partsFromItems(items, base.SK) };
}

/** Assembles the related items of a recording's key range into parts. */
export function partsFromItems(items: Record<string, unknown>[], recordingSk: string): RecordingParts {
  const parts: RecordingParts = {};
  const chunks: { index: string; segments: TranscriptSegment[] }[] = [];
  for (const item of items) {
    const sk = String(item.SK);
    if (!sk.startsWith(`${recordingSk}#`)) continue;
    const part = sk.slice(recordingSk.length + 1);
    if (part === 'SUMMARY') parts.summary = summaryFromItem(item);
    else if (part === 'ACTIONS') parts.action_items = actionItemsFromItem(item);
    else if (part === 'TRANSLATION') parts.translation = translationFromItem(item);
    else if (part === 'TRANSCRIPT') parts.transcript = { header: transcriptHeaderFromItem(item), segments: [] };
    else if (part.startsWith('TRANSCRIPT#')) chunks.push({ index: part, segments: transcriptChunkFromItem(item) });
  }
  if (parts.transcript) {
    // Only the chunks of the header's set: a re-run's new set lands before its header, an old one goes after it.
    const chunkSet = parts.transcript.header.chunk_set;
    const ofHeader = chunkSet === undefined ? /^TRANSCRIPT#\d{4}$/ : new RegExp(`^TRANSCRIPT#${String(chunkSet).padStart(4, '0')}#\\d{4}$`);
    parts.transcript.segments = chunks
      .filter((chunk) => ofHeader.test(chunk.index))
      .sort((a, b) => a.index.localeCompare(b.index))
      .flatMap((chunk) => chunk.segments);
  }
  return parts;
}

/**
 * Deletes every related item of a recording deleted for good (summary, action items,
 * translation, transcript header and chunks, and the translations' partition): one strongly consistent query over the
 * recording's key range, then batches of 25, retrying unprocessed ones. When the range
 * still holds the recording item itself (the recording is not deleted, or an id was reused)
 * nothing is deleted. Returns how many items went, and whether the recording was there.
 */
export async function deleteRelatedItems(
  db: TableContext,
  orgId: string,
  recordingId: string,
): Promise<{ deleted: number; recordingExists: boolean }> {
  const base = keys.recording(orgId, recordingId);
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': base.PK, ':from': base.SK, ':to': `${base.SK}#~` },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  if (items.some((item) => item.SK === base.SK)) return { deleted: 0, recordingExists: true };
  // The translations live under a partition of their own (keys.recordingTranslation): one more query.
  const translations = await deleteAllTranslations(db, orgId, recordingId);
  const itemKeys = items.map((item) => ({ PK: base.PK, SK: String(item.SK) }));
  for (let i = 0; i < itemKeys.length; i += 25) {
    await sendUntilProcessed(
      itemKeys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })),
      async (requests) => {
        const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: requests } }));
        return (UnprocessedItems?.[db.tableName] ?? []) as typeof requests;
      },
    );
  }
  return { deleted: itemKeys.length + translations, recordingExists: false };
}

/** Whether a recording was deleted for good within the tombstones' 7 days (a consistent GetItem of its tombstone). */
export async function recordingDeletedRecently(db: TableContext, orgId: string, recordingId: string): Promise<boolean> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.tombstone(orgId, 'recording', recordingId), ConsistentRead: true }),
  );
  return Item !== undefined;
}
