import * as v from 'valibot';
import { integerParam, optionalIntegerParam } from '../http/validation';
import { Id, Timestamp } from './common';

/** A UTC calendar day, YYYY-MM-DD, that exists. */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

const Day = v.pipe(v.string(), v.check(isCalendarDay, 'must be a calendar day YYYY-MM-DD'));
/** Recording limits; docs/data-model.md, "Size budgets", checks the lists that carry them against one Lambda response. */
export const RECORDING_LIMITS = { title: 200, description: 5_000, tags: 20 } as const;
const TAGS_MAX = RECORDING_LIMITS.tags;
/** Comma-separated ids in a query parameter. */
const IdList = v.pipe(
  v.string(),
  v.transform((text) => [...new Set(text.split(',').map((id) => id.trim()).filter(Boolean))]),
  v.minLength(1, 'must name at least one id'),
  v.maxLength(TAGS_MAX, `must name at most ${TAGS_MAX} ids`),
  v.check((ids) => ids.every((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id)), 'must be comma-separated ids'),
);
const TrueFalse = v.picklist(['true', 'false'], 'must be true or false');
/** The trash's retention as the API documents it (config: TRASH_RETENTION_DAYS). */
const TRASH_RETENTION_TEXT = 'A recording in the trash for longer than TRASH_RETENTION_DAYS (default 30) is deleted permanently.';
const TRASH_DESCRIPTION = `true lists the trash instead of the live recordings. ${TRASH_RETENTION_TEXT}`;

/** Query of the organization's List recordings. */
export const ListRecordingsQuery = v.strictObject({
  date: v.optional(Day),
  startDate: v.optional(Day),
  endDate: v.optional(Day),
  tagIds: v.optional(IdList),
  tagMode: v.optional(v.picklist(['any', 'all'], 'must be any or all'), 'any'),
  recordedBy: v.optional(Id),
  recordedByEmail: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('must be an email address'))),
  // Absent and 1 differ: a cursor carries its own page, so only an explicit page conflicts with it.
  page: optionalIntegerParam({ defaultValue: 1, min: 1 }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100 }),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
  deleted: v.pipe(v.optional(TrueFalse, 'false'), v.description(TRASH_DESCRIPTION)),
});
export type ListRecordingsQuery = v.InferOutput<typeof ListRecordingsQuery>;

export const RECORDING_INCLUDES = ['transcript', 'summary', 'action_items', 'translation'] as const;
export type RecordingInclude = (typeof RECORDING_INCLUDES)[number];

export const GetRecordingQuery = v.strictObject({
  include: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))]),
      v.check(
        (names) => names.every((name) => (RECORDING_INCLUDES as readonly string[]).includes(name)),
        `must list among ${RECORDING_INCLUDES.join(', ')}`,
      ),
      v.transform((names) => names as RecordingInclude[]),
    ),
  ),
});

const Title = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(RECORDING_LIMITS.title, `must be at most ${RECORDING_LIMITS.title} characters`));
const TagIdArray = v.pipe(
  v.array(Id, 'must be an array of tag ids'),
  v.maxLength(TAGS_MAX, `must hold at most ${TAGS_MAX} tags`),
  v.check((ids) => new Set(ids).size === ids.length, 'must not repeat a tag'),
);

/** Body of Update recording: every field optional, at least one. */
export const UpdateRecordingBody = v.pipe(
  v.strictObject({
    title: v.optional(Title),
    description: v.optional(v.pipe(v.string('must be a string'), v.maxLength(RECORDING_LIMITS.description, `must be at most ${RECORDING_LIMITS.description.toLocaleString('en-US')} characters`))),
    tags: v.optional(TagIdArray),
  }),
  v.check((body) => Object.keys(body).length > 0, 'give at least one of title, description, tags'),
);

export const DeleteRecordingQuery = v.strictObject({
  permanent: v.pipe(
    v.optional(TrueFalse, 'false'),
    v.description(
      `true deletes the recording for good at once (its file and related resources are removed shortly after, off the request); false moves it to the trash, where restore brings it back. ${TRASH_RETENTION_TEXT}`,
    ),
  ),
});

/** Query of Get recording media (both hosts). */
export const RecordingMediaQuery = v.strictObject({
  download: v.pipe(
    v.optional(TrueFalse, 'false'),
    v.description(
      "true makes the URL save the file (Content-Disposition: attachment); false (the default) lets a browser play it in the page (inline). Either way the disposition carries the original file name.",
    ),
  ),
});

/** Audio and video types an upload URL is issued for. */
export const UPLOAD_CONTENT_TYPES = [
  'audio/mpeg',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/wav',
  'audio/x-wav',
  'audio/webm',
  'audio/ogg',
  'audio/flac',
  'video/mp4',
  'video/webm',
  'video/quicktime',
] as const;

const Language = v.pipe(v.string('must be a string'), v.maxLength(35, 'must be at most 35 characters'), v.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'));

/** Body of Create upload URL. */
export const UploadUrlBody = v.strictObject({
  filename: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(255, 'must be at most 255 characters'),
    v.regex(/^[^/\\\u0000-\u001f]+$/, 'must be a file name without slashes or control characters'),
  ),
  content_type: v.picklist(UPLOAD_CONTENT_TYPES, `must be one of ${UPLOAD_CONTENT_TYPES.join(', ')}`),
  size_bytes: v.pipe(v.number('must be a number'), v.integer('must be a whole number of bytes'), v.minValue(1, 'must be at least 1')),
  title: v.optional(Title),
  language: v.optional(Language, 'en'),
  recorded_at: v.optional(Timestamp),
  folder_id: v.optional(v.nullable(Id)),
  tag_ids: v.optional(TagIdArray, []),
});
export type UploadUrlBody = v.InferOutput<typeof UploadUrlBody>;

/** Query of the public List recordings. */
export const PublicListRecordingsQuery = v.strictObject({
  start_date: v.optional(Day),
  end_date: v.optional(Day),
  tag_ids: v.optional(IdList),
  page: integerParam({ defaultValue: 1, min: 1 }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100 }),
});
