import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { keys, withoutKeys, type RecordingBin } from './keys';
import { queryAll } from './query-all';
import { isConditionFailure } from './transactions';
import { sendUntilProcessed } from './write-retries';

/** Recording states: the service sets the first two; the processing pipeline the rest. */
export const RECORDING_STATES = ['pending_upload', 'uploaded', 'processing', 'ready', 'failed'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];

export interface TranscriptSegment {
  speaker: string;
  text: string;
  start: number;
  end: number;
}
export interface Summary {
  markdown: string;
  /** The template it was made with; kept when the template is deleted. */
  template_id?: string | null;
  template_name?: string | null;
  created_at: string;
  updated_at: string;
}
export interface ActionItem {
  id: string;
  text: string;
  assignee: string | null;
  due_date: string | null;
  completed: boolean;
}
export interface Translation {
  id: string;
  created_at: string;
  updated_at: string;
  detected_language: string;
  to_language: string;
  processing_status: string;
  error_message: string;
}
export interface TranscriptHeader {
  id: string;
  language: string;
  segment_count: number;
  chunk_count: number;
  created_at: string;
  updated_at: string;
}

/** A recording item. Its related resources are items of their own, flagged in `related`. */
export interface Recording {
  id: string;
  org_id: string;
  recorded_by: string;
  title: string;
  description: string;
  duration: number;
  language: string;
  tags: string[];
  folder_id: string | null;
  state: RecordingState;
  created_at: string;
  updated_at: string;
  recording_at: string;
  deleted_at?: string;
  upload?: {
    s3_key: string;
    content_type: string;
    filename: string;
    size_bytes: number;
    uploaded_bytes?: number;
    /** The type the object was stored with; absent when the object was gone before it was read. */
    uploaded_content_type?: string;
    uploaded_at?: string;
  };
  related: { transcript: boolean; summary: boolean; action_items: boolean; translation: boolean };
  transcript_error?: string;
  summarizations_errors?: string[];
  translation_error?: string;
  /** Why the upload failed (state `failed` set by the upload completion), e.g. `size_mismatch: …`. */
  upload_error?: string;
}

/** Everything a recording's related items hold. */
export interface RecordingParts {
  transcript?: { header: TranscriptHeader; segments: TranscriptSegment[] };
  summary?: Summary;
  action_items?: ActionItem[];
  translation?: Translation;
}

/** Transcript segments per chunk item: keeps each chunk far below DynamoDB's 400 KB item limit. */
const TRANSCRIPT_CHUNK_BYTES = 200_000;

const binOf = (recording: Recording): RecordingBin => (recording.deleted_at ? 'TRASH' : 'LIVE');

/** The recording item with the index keys of its bin (live or trash). */
export function recordingItem(recording: Recording) {
  const bin = binOf(recording);
  return {
    ...keys.recording(recording.org_id, recording.id),
    ...keys.recordingsIndex(recording.org_id, bin, recording.created_at, recording.id),
    ...keys.recorderRecordingsIndex(recording.org_id, recording.recorded_by, bin, recording.created_at, recording.id),
    ...recording,
  };
}

export function recordingFromItem(item: Record<string, unknown>): Recording {
  return withoutKeys(item) as unknown as Recording;
}

/** The link items of a live recording, one per tag; each carries the recording's whole tag set for tagMode=all. */
export function tagLinkItems(recording: Recording) {
  if (recording.deleted_at) return [];
  return recording.tags.map((tagId) => ({
    ...keys.recordingTagLink(recording.org_id, tagId, recording.created_at, recording.id),
    recording_id: recording.id,
    recorded_by: recording.recorded_by,
    tags: recording.tags,
  }));
}

/** The related items of a recording (transcript split into chunks). */
export function partItems(orgId: string, recordingId: string, parts: RecordingParts) {
  const items: Record<string, unknown>[] = [];
  const key = (part: string) => keys.recordingPart(orgId, recordingId, part);
  if (parts.summary) items.push({ ...key('SUMMARY'), ...parts.summary });
  if (parts.action_items) items.push({ ...key('ACTIONS'), items: parts.action_items });
  if (parts.translation) items.push({ ...key('TRANSLATION'), ...parts.translation });
  if (parts.transcript) {
    const chunks = chunkSegments(parts.transcript.segments);
    items.push({ ...key('TRANSCRIPT'), ...parts.transcript.header, segment_count: parts.transcript.segments.length, chunk_count: chunks.length });
    chunks.forEach((segments, index) => items.push({ ...key(`TRANSCRIPT#${String(index + 1).padStart(4, '0')}`), segments }));
  }
  return items;
}

function chunkSegments(segments: TranscriptSegment[]): TranscriptSegment[][] {
  const chunks: TranscriptSegment[][] = [];
  let current: TranscriptSegment[] = [];
  let size = 0;
  for (const segment of segments) {
    const segmentSize = Buffer.byteLength(JSON.stringify(segment)) + 16;
    if (current.length && size + segmentSize > TRANSCRIPT_CHUNK_BYTES) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(segment);
    size += segmentSize;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** Reads a recording item; `consistent` when the read must see a write that was just acknowledged. */
export async function getRecording(db: TableContext, orgId: string, recordingId: string, options: { consistent?: boolean } = {}): Promise<Recording | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.recording(orgId, recordingId), ...(options.consistent ? { ConsistentRead: true } : {}) }),
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
export async function recordUploadOutcome(db: TableContext, pending: Recording & { upload: NonNullable<Recording['upload']> }, outcome: UploadOutcome): Promise<boolean> {
  const set = ['#state = :state', 'upload.uploaded_bytes = :bytes', 'upload.uploaded_at = :at', 'updated_at = :at'];
  const values: Record<string, unknown> = {
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
        ConditionExpression: '#state = :pending AND upload.s3_key = :key AND upload.size_bytes = :declaredBytes AND upload.content_type = :declaredType',
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

/** A recording and every related item, in one query over its key range. */
export async function getRecordingWithParts(db: TableContext, orgId: string, recordingId: string): Promise<{ recording?: Recording; parts: RecordingParts }> {
  const base = keys.recording(orgId, recordingId);
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': base.PK, ':from': base.SK, ':to': `${base.SK}#~` },
  });
  const recordingRow = items.find((item) => item.SK === base.SK);
  return { recording: recordingRow && recordingFromItem(recordingRow), parts: partsFromItems(items, base.SK) };
}

/** Assembles related items (from a query or a batch get) into parts. */
export function partsFromItems(items: Record<string, unknown>[], recordingSk: string): RecordingParts {
  const parts: RecordingParts = {};
  const chunks: { index: string; segments: TranscriptSegment[] }[] = [];
  for (const item of items) {
    const sk = item.SK as string;
    if (!sk.startsWith(`${recordingSk}#`)) continue;
    const part = sk.slice(recordingSk.length + 1);
    const fields = withoutKeys(item) as Record<string, unknown>;
    if (part === 'SUMMARY') parts.summary = fields as unknown as Summary;
    else if (part === 'ACTIONS') parts.action_items = fields.items as ActionItem[];
    else if (part === 'TRANSLATION') parts.translation = fields as unknown as Translation;
    else if (part === 'TRANSCRIPT') parts.transcript = { header: fields as unknown as TranscriptHeader, segments: [] };
    else if (part.startsWith('TRANSCRIPT#')) chunks.push({ index: part, segments: fields.segments as TranscriptSegment[] });
  }
  if (parts.transcript) {
    parts.transcript.segments = chunks.sort((a, b) => a.index.localeCompare(b.index)).flatMap((chunk) => chunk.segments);
  }
  return parts;
}

/** The keys of every related item of a recording (for permanent deletion). */
export async function listPartKeys(db: TableContext, orgId: string, recordingId: string): Promise<{ PK: string; SK: string }[]> {
  const base = keys.recording(orgId, recordingId);
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': base.PK, ':from': `${base.SK}#`, ':to': `${base.SK}#~` },
    ProjectionExpression: 'PK, SK',
  });
  return items as { PK: string; SK: string }[];
}

/** Deletes items in batches of 25 (retrying unprocessed ones); for parts too many for one transaction. */
export async function deleteItems(db: TableContext, itemKeys: { PK: string; SK: string }[]): Promise<void> {
  for (let i = 0; i < itemKeys.length; i += 25) {
    await sendUntilProcessed(
      itemKeys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })),
      async (requests) => {
        const { UnprocessedItems } = await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: requests } }));
        return (UnprocessedItems?.[db.tableName] ?? []) as typeof requests;
      },
    );
  }
}

/** Runs a query input as is (the list planner builds them). */
export function sendQuery(db: TableContext, input: QueryCommandInput) {
  return db.client.send(new QueryCommand(input));
}
