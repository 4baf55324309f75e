import * as v from 'valibot';
import { UPLOAD_MAX_BYTES_CEILING } from '../core/limits';
import { integerParam, optionalIntegerParam } from './validation';
import { Day, EMAIL_MAX_LENGTH, formatCount, Id, ID_MAX_LENGTH, ID_PATTERN, INCLUDE_MAX_LENGTH, Timestamp } from './common';

export { Day, isCalendarDay } from './common';

/** Recording limits; docs/data-model.md, "Size budgets", checks the lists that carry them against one Lambda response. */
export const RECORDING_LIMITS = { title: 200, description: 5_000, tags: 20 } as const;
const TAGS_MAX = RECORDING_LIMITS.tags;
/** The longest text of a tag id list: TAGS_MAX ids of the longest form, each with a comma and a space. */
const ID_LIST_MAX_LENGTH = TAGS_MAX * (ID_MAX_LENGTH + 2);
/** Comma-separated ids in a query parameter. */
const IdList = v.pipe(
  v.string(),
  // On the text, before the split: the document's input form ends at the transform.
  v.maxLength(ID_LIST_MAX_LENGTH, `must be at most ${formatCount(ID_LIST_MAX_LENGTH)} characters`),
  v.transform((text) => [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ]),
  v.minLength(1, 'must name at least one id'),
  v.maxLength(TAGS_MAX, `must name at most ${TAGS_MAX} ids`),
  v.check((ids) => ids.every((id) => ID_PATTERN.test(id)), 'must be comma-separated ids'),
);
const TrueFalse = v.picklist(['true', 'false'], 'must be true or false');
/** The trash's retention as the API documents it (config: TRASH_RETENTION_DAYS). */
const TRASH_RETENTION_TEXT = 'A recording in the trash for longer than TRASH_RETENTION_DAYS (default 30) is deleted permanently.';
const TRASH_DESCRIPTION = `true lists the trash instead of the live recordings. ${TRASH_RETENTION_TEXT}`;

const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
const TAG_IDS_TEXT = `Comma-separated tag ids (at most ${TAGS_MAX}; repeats ignored)`;

/** Query of the organization's List recordings. */
export const ListRecordingsQuery = v.strictObject({
  date: described(v.optional(Day), 'Only recordings created on this UTC day, YYYY-MM-DD. Not with startDate or endDate.'),
  startDate: described(v.optional(Day), 'Only recordings created on or after this UTC day (from midnight), YYYY-MM-DD.'),
  endDate: described(
    v.optional(Day),
    'Only recordings created on or before this UTC day (until 23:59:59.999), YYYY-MM-DD; not before startDate.',
  ),
  tagIds: described(v.optional(IdList), `${TAG_IDS_TEXT}: only recordings with any (or, with tagMode=all, every) of these tags.`),
  tagMode: described(
    v.optional(v.picklist(['any', 'all'], 'must be any or all'), 'any'),
    '`any`: a recording with one of tagIds matches; `all`: only one with every one of them.',
  ),
  recordedBy: described(v.optional(Id), 'Only recordings made by this member (user id). Not with recordedByEmail.'),
  recordedByEmail: described(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.email('must be an email address'),
        v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
      ),
    ),
    'Only recordings made by the member with this email (any case).',
  ),
  // Absent and 1 differ: a cursor carries its own page, so only an explicit page conflicts with it.
  page: optionalIntegerParam({ defaultValue: 1, min: 1, description: 'The page to return, 1-based. Not with cursor.' }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100, description: 'Recordings per page.' }),
  cursor: described(
    v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
    "The previous page's `pagination.next_cursor`, with the same filters: the next page, read by key (faster than `page` deep in a list).",
  ),
  deleted: v.pipe(
    v.optional(TrueFalse, 'false'),
    v.description(`${TRASH_DESCRIPTION} Listing the trash needs the admin role (or, for an organization key, recordings:write).`),
  ),
});
export type ListRecordingsQuery = v.InferOutput<typeof ListRecordingsQuery>;

export const RECORDING_INCLUDES = ['transcript', 'summary', 'action_items', 'translation', 'speakers'] as const;
export type RecordingInclude = (typeof RECORDING_INCLUDES)[number];

export const GetRecordingQuery = v.strictObject({
  include: described(
    v.optional(
      v.pipe(
        v.string(),
        v.maxLength(INCLUDE_MAX_LENGTH, `must be at most ${INCLUDE_MAX_LENGTH} characters`),
        v.transform((text) => [
          ...new Set(
            text
              .split(',')
              .map((name) => name.trim())
              .filter(Boolean),
          ),
        ]),
        v.check(
          (names) => names.every((name) => (RECORDING_INCLUDES as readonly string[]).includes(name)),
          `must list among ${RECORDING_INCLUDES.join(', ')}`,
        ),
        v.transform((names) => names as RecordingInclude[]),
      ),
    ),
    `Comma-separated related resources to add to the recording: ${RECORDING_INCLUDES.join(', ')} (each null when the recording has none). Absent: none.`,
  ),
});

const Title = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(RECORDING_LIMITS.title, `must be at most ${RECORDING_LIMITS.title} characters`),
);
const TagIdArray = v.pipe(
  v.array(Id, 'must be an array of tag ids'),
  v.maxLength(TAGS_MAX, `must hold at most ${TAGS_MAX} tags`),
  v.check((ids) => new Set(ids).size === ids.length, 'must not repeat a tag'),
);

/** Body of Update recording: every field optional, at least one. */
export const UpdateRecordingBody = v.pipe(
  v.strictObject({
    title: described(v.optional(Title), `The new title, 1 to ${RECORDING_LIMITS.title} characters (trimmed).`),
    description: described(
      v.optional(
        v.pipe(
          v.string('must be a string'),
          v.maxLength(RECORDING_LIMITS.description, `must be at most ${formatCount(RECORDING_LIMITS.description)} characters`),
        ),
      ),
      `The new description, at most ${formatCount(RECORDING_LIMITS.description)} characters; empty clears it.`,
    ),
    tags: described(
      v.optional(TagIdArray),
      `The tag ids that replace the recording's tags, at most ${TAGS_MAX}, each a tag of the organization; [] removes them all.`,
    ),
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
      'true makes the URL save the file (Content-Disposition: attachment); false (the default) lets a browser play it in the page (inline). Either way the disposition carries the original file name.',
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

const Language = v.pipe(
  v.string('must be a string'),
  v.maxLength(35, 'must be at most 35 characters'),
  v.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'),
);

/** Body of Create upload URL. */
export const UploadUrlBody = v.strictObject({
  filename: described(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(255, 'must be at most 255 characters'),
      v.regex(/^[^/\\\u0000-\u001f]+$/, 'must be a file name without slashes or control characters'),
    ),
    'The name of the file, 1 to 255 characters without slashes or control characters: the download keeps it (Content-Disposition).',
  ),
  content_type: described(
    v.picklist(UPLOAD_CONTENT_TYPES, `must be one of ${UPLOAD_CONTENT_TYPES.join(', ')}`),
    'The media type of the file: the upload must send it as its Content-Type.',
  ),
  size_bytes: described(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number of bytes'),
      v.minValue(1, 'must be at least 1'),
      // No deployment's UPLOAD_MAX_BYTES is larger: the handler refuses what is over the deployment's own.
      v.maxValue(UPLOAD_MAX_BYTES_CEILING, `must be at most ${UPLOAD_MAX_BYTES_CEILING} bytes`),
    ),
    'The exact size of the file in bytes, at most UPLOAD_MAX_BYTES (1 GiB by default, never over 5 GiB, the largest single S3 PUT): the upload must be this size, or the recording fails.',
  ),
  title: described(
    v.optional(Title),
    `The recording's title, 1 to ${RECORDING_LIMITS.title} characters; absent: the file name without its extension.`,
  ),
  language: described(
    v.optional(Language, 'en'),
    'The language spoken, as a language tag such as `en` or `pt-BR` (at most 35 characters).',
  ),
  recorded_at: described(v.optional(Timestamp), 'When it was recorded (ISO 8601), if known.'),
  folder_id: described(v.optional(v.nullable(Id)), 'The folder to put it in; null or absent: none.'),
  tag_ids: described(v.optional(TagIdArray, []), `Its tags, at most ${TAGS_MAX} ids of the organization's tags, without repeats.`),
});
export type UploadUrlBody = v.InferOutput<typeof UploadUrlBody>;

/** Query of the public List recordings. */
export const PublicListRecordingsQuery = v.strictObject({
  start_date: described(v.optional(Day), 'Only recordings created on or after this UTC day (from midnight), YYYY-MM-DD.'),
  end_date: described(
    v.optional(Day),
    'Only recordings created on or before this UTC day (until 23:59:59.999), YYYY-MM-DD; not before start_date.',
  ),
  tag_ids: described(v.optional(IdList), `${TAG_IDS_TEXT}: only recordings with any of these tags.`),
  page: integerParam({ defaultValue: 1, min: 1, description: 'The page to return, 1-based.' }),
  limit: integerParam({ defaultValue: 20, min: 1, max: 100, description: 'Recordings per page.' }),
});
