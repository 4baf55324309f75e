import { changeStamp } from './change-stamp';
import { itemFields, StoredItemError, type ItemFields } from './item-fields';
import { keys, type RecordingBin } from './keys';

/**
 * Recordings and their parts as items: types, item builders and the explicit mappers. No
 * DynamoDB client here, so what only maps items (the event processor) bundles none.
 */

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
  /**
   * While in the trash: when its trash timer runs out (the timer's `purge_at`, written in the
   * same transaction as the timer), so the trash list shows it without reading the timers.
   * Absent on a live recording, and on one trashed without a timer (until seed or reindex sets one).
   */
  purge_at?: string;
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
  // A purge date belongs to a trash period: a recording leaving the trash leaves it behind.
  const { purge_at: purgeAt, ...fields } = recording;
  return {
    ...keys.recording(recording.org_id, recording.id),
    ...keys.recordingsIndex(recording.org_id, bin, recording.created_at, recording.id),
    ...keys.recorderRecordingsIndex(recording.org_id, recording.recorded_by, bin, recording.created_at, recording.id),
    ...fields,
    ...(bin === 'TRASH' && purgeAt !== undefined ? { purge_at: purgeAt } : {}),
    ...changeStamp(),
  };
}

type Item = Record<string, unknown>;

/**
 * Typed reads of a map nested in a stored item (an entry of a list, or a map attribute):
 * errors name the item it belongs to.
 */
function nestedFields(owner: Item, value: unknown, entity: string): ItemFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new StoredItemError(`Stored ${entity} ${String(owner.PK)}|${String(owner.SK)}: is not a map`);
  }
  return itemFields({ ...value, PK: owner.PK, SK: owner.SK }, entity);
}

/** An optional list of strings (absent stays absent). */
function optionalStringList(item: Item, fields: ItemFields, name: string): string[] | undefined {
  return item[name] === undefined ? undefined : fields.stringList(name);
}

/**
 * Maps a stored recording item (StoredItemError when it lacks a field it needs). The
 * attributes some writers leave out are optional: the trash mark, the upload (fixtures
 * create recordings without one), the upload's completion fields and the error fields.
 */
export function recordingFromItem(item: Item): Recording {
  const fields = itemFields(item, 'recording');
  const related = nestedFields(item, item.related, 'recording related flags');
  const recording: Recording = {
    id: fields.string('id'),
    org_id: fields.string('org_id'),
    recorded_by: fields.string('recorded_by'),
    title: fields.string('title'),
    description: fields.string('description'),
    duration: fields.number('duration'),
    language: fields.string('language'),
    tags: fields.stringList('tags'),
    folder_id: fields.nullableString('folder_id'),
    state: fields.oneOf('state', RECORDING_STATES),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    recording_at: fields.string('recording_at'),
    related: {
      transcript: related.boolean('transcript'),
      summary: related.boolean('summary'),
      action_items: related.boolean('action_items'),
      translation: related.boolean('translation'),
    },
  };
  const deletedAt = fields.optionalString('deleted_at');
  if (deletedAt !== undefined) recording.deleted_at = deletedAt;
  const purgeAt = fields.optionalString('purge_at');
  if (purgeAt !== undefined) recording.purge_at = purgeAt;
  if (item.upload !== undefined) recording.upload = uploadFromMap(item);
  const transcriptError = fields.optionalString('transcript_error');
  if (transcriptError !== undefined) recording.transcript_error = transcriptError;
  const summarizationsErrors = optionalStringList(item, fields, 'summarizations_errors');
  if (summarizationsErrors !== undefined) recording.summarizations_errors = summarizationsErrors;
  const translationError = fields.optionalString('translation_error');
  if (translationError !== undefined) recording.translation_error = translationError;
  const uploadError = fields.optionalString('upload_error');
  if (uploadError !== undefined) recording.upload_error = uploadError;
  return recording;
}

function uploadFromMap(item: Item): NonNullable<Recording['upload']> {
  const fields = nestedFields(item, item.upload, 'recording upload');
  const upload: NonNullable<Recording['upload']> = {
    s3_key: fields.string('s3_key'),
    content_type: fields.string('content_type'),
    filename: fields.string('filename'),
    size_bytes: fields.number('size_bytes'),
  };
  // Set by the upload completion only.
  const uploadedBytes = fields.optionalNumber('uploaded_bytes');
  if (uploadedBytes !== undefined) upload.uploaded_bytes = uploadedBytes;
  const uploadedContentType = fields.optionalString('uploaded_content_type');
  if (uploadedContentType !== undefined) upload.uploaded_content_type = uploadedContentType;
  const uploadedAt = fields.optionalString('uploaded_at');
  if (uploadedAt !== undefined) upload.uploaded_at = uploadedAt;
  return upload;
}

/** Maps a stored summary item; the template it was made with may be absent or null. */
export function summaryFromItem(item: Item): Summary {
  const fields = itemFields(item, 'summary');
  return {
    markdown: fields.string('markdown'),
    template_id: fields.nullableString('template_id'),
    template_name: fields.nullableString('template_name'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** Maps a stored action items item (its `items` list, in order). */
export function actionItemsFromItem(item: Item): ActionItem[] {
  return itemFields(item, 'action items')
    .list('items')
    .map((entry) => {
      const fields = nestedFields(item, entry, 'action item');
      return {
        id: fields.string('id'),
        text: fields.string('text'),
        assignee: fields.nullableString('assignee'),
        due_date: fields.nullableString('due_date'),
        completed: fields.boolean('completed'),
      };
    });
}

/** Maps a stored translation item. */
export function translationFromItem(item: Item): Translation {
  const fields = itemFields(item, 'translation');
  return {
    id: fields.string('id'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    detected_language: fields.string('detected_language'),
    to_language: fields.string('to_language'),
    processing_status: fields.string('processing_status'),
    error_message: fields.string('error_message'),
  };
}

/** Maps a stored transcript header item (the segments are in its chunk items). */
export function transcriptHeaderFromItem(item: Item): TranscriptHeader {
  const fields = itemFields(item, 'transcript header');
  return {
    id: fields.string('id'),
    language: fields.string('language'),
    segment_count: fields.number('segment_count'),
    chunk_count: fields.number('chunk_count'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
}

/** Maps a stored transcript chunk item: its segments, in order. */
export function transcriptChunkFromItem(item: Item): TranscriptSegment[] {
  return itemFields(item, 'transcript chunk')
    .list('segments')
    .map((entry) => {
      const fields = nestedFields(item, entry, 'transcript segment');
      return { speaker: fields.string('speaker'), text: fields.string('text'), start: fields.number('start'), end: fields.number('end') };
    });
}

/** The key of a recording's link under one tag (newest first in the tag's partition). */
export function tagLinkKey(recording: Recording, tagId: string): { PK: string; SK: string } {
  const { PK, SK } = keys.recordingTagLink(recording.org_id, tagId, recording.created_at, recording.id);
  // The builder leaves SK out only when created_at is not given, which it is here.
  if (SK === undefined) throw new Error(`No tag link sort key for recording ${recording.id}`);
  return { PK, SK };
}

/** A recording's link item under one tag; it carries the recording's whole tag set for tagMode=all. */
export function tagLinkItem(recording: Recording, tagId: string) {
  return { ...tagLinkKey(recording, tagId), recording_id: recording.id, recorded_by: recording.recorded_by, tags: recording.tags };
}

/** The link items of a live recording, one per tag (a recording in the trash has none). */
export function tagLinkItems(recording: Recording) {
  if (recording.deleted_at) return [];
  return recording.tags.map((tagId) => tagLinkItem(recording, tagId));
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
