import { RECORDING_STATES, type RecordingState } from '../core/recording-states';
import { TRANSLATION_STATUSES, type TranslationStatus } from '../core/translation-statuses';
import { changeStamp } from './change-stamp';
import { itemFields, nestedItemFields, type ItemFields } from './item-fields';
import { keys, type RecordingBin } from './keys';
import { speakersFromList, type RecordingSpeaker } from './speaker-items';
import { transcriptionFromMap, type RecordingTranscription } from './transcription-items';

export { REDACTION_ENGINES, type RecordingTranscription, type TranscriptRedaction } from './transcription-items';
import { digestFromMap, type SummaryDigest } from './summary-items';

/**
 * Recordings and their tag links as items: types, item builders and the explicit mappers
 * (their related items, transcript, summary, action items and translation, are in
 * recording-part-items.ts). No DynamoDB client here, so what only maps items (the event
 * processor) bundles none.
 */

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
  transcription?: RecordingTranscription;
  /**
   * A digest of each of its summaries (docs/summaries.md), oldest first, at most 20: every
   * summary transition rewrites it with the summary's item, in one transaction.
   */
  summaries?: SummaryDigest[];
  /** The latest translation asked for (docs/translations.md); absent until one is. */
  translation?: RecordingTranslation;
  /** A legal hold on this recording (docs/governance.md): while present, nothing deletes it. */
  legal_hold?: LegalHold;
  /** Its transcript's speakers (speaker-items.ts): set when a transcript is stored, named by Update speakers; absent before. */
  speakers?: RecordingSpeaker[];
}

/** A legal hold, on a recording or on a member's recordings: why, who placed it (a user or key id) and when. */
export interface LegalHold {
  reason: string;
  placed_by: string;
  placed_at: string;
}

/** The UTC day retention counts a recording's age from: when it was recorded, else when it was created. */
export const retentionDayOf = (recording: Pick<Recording, 'recording_at' | 'created_at'>): string =>
  (recording.recording_at || recording.created_at).slice(0, 10);

/**
 * The recording's latest translation: the spec's `translation` (id, times, languages, status,
 * error message) plus what the pipeline needs. Its transitions restamp the recording's
 * `updated_at`, like the transcription's, so concurrent whole-item writes conflict.
 */
export interface RecordingTranslation {
  id: string;
  status: TranslationStatus;
  /** Amazon Translate codes: the transcript's language, and the one asked for. */
  from_language: string;
  to_language: string;
  /** 1 for the recording's first translation; each request adds one (its chunk set). */
  attempt: number;
  created_at: string;
  updated_at: string;
  finished_at?: string;
  segment_count?: number;
  /** Set when failed: the machine code and the reason (`error_message`). */
  error_code?: string;
  error_message?: string;
}

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
    ...(bin === 'LIVE' ? keys.recordingRetentionIndex(recording.org_id, retentionDayOf(recording), recording.id) : {}),
    ...fields,
    ...(bin === 'TRASH' && purgeAt !== undefined ? { purge_at: purgeAt } : {}),
    ...changeStamp(),
  };
}

type Item = Record<string, unknown>;

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
  const related = nestedItemFields(item, item.related, 'recording related flags');
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
  if (item.transcription !== undefined) recording.transcription = transcriptionFromMap(item);
  if (item.summaries !== undefined) recording.summaries = fields.list('summaries').map((entry) => digestFromMap(item, entry));
  if (item.translation !== undefined) recording.translation = translationRunFromMap(item);
  if (item.legal_hold !== undefined) recording.legal_hold = legalHoldFromMap(item, item.legal_hold, 'recording legal hold');
  if (item.speakers !== undefined) recording.speakers = speakersFromList(item, fields.list('speakers'));
  return recording;
}

export function legalHoldFromMap(item: Item, map: unknown, what: string): LegalHold {
  const fields = nestedItemFields(item, map, what);
  return { reason: fields.string('reason'), placed_by: fields.string('placed_by'), placed_at: fields.string('placed_at') };
}

function translationRunFromMap(item: Item): RecordingTranslation {
  const fields = nestedItemFields(item, item.translation, 'recording translation');
  const translation: RecordingTranslation = {
    id: fields.string('id'),
    status: fields.oneOf('status', TRANSLATION_STATUSES),
    from_language: fields.string('from_language'),
    to_language: fields.string('to_language'),
    attempt: fields.number('attempt'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
  };
  const optional = {
    finished_at: fields.optionalString('finished_at'),
    segment_count: fields.optionalNumber('segment_count'),
    error_code: fields.optionalString('error_code'),
    error_message: fields.optionalString('error_message'),
  };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) Object.assign(translation, { [name]: value });
  return translation;
}

function uploadFromMap(item: Item): NonNullable<Recording['upload']> {
  const fields = nestedItemFields(item, item.upload, 'recording upload');
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
