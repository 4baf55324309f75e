import * as v from 'valibot';
import { AUTO_LANGUAGE, TRANSCRIBE_LANGUAGE_CODES } from '../core/transcription-languages';
import { admitsAtMost } from './common';
import { TranslationLanguage } from './translations';
import { integerParam } from './validation';

// Local, as recordings.ts has it: a route's bundle carries its request schemas' module alone, not the envelopes.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/* The transcription routes' requests: Transcribe recording, Get transcript and Get usage (docs/transcription.md). */

/**
 * A BCP-47 language code of a transcription language (language and region, such as `en-US` or
 * `pt-BR`) that Amazon Transcribe knows, or `auto`: the recorder's conversation language, else
 * automatic identification. Any other code is a 400, never a job Transcribe refuses.
 */
const TranscriptionLanguage = v.picklist(
  [AUTO_LANGUAGE, ...TRANSCRIBE_LANGUAGE_CODES],
  'must be a language code Amazon Transcribe knows, such as en-US, or auto',
);

/** Body of Transcribe recording (both hosts): optional, and so is its one field. */
export const TranscribeBody = v.optional(
  v.strictObject({
    language: described(
      v.optional(TranscriptionLanguage, 'auto'),
      "The language spoken, as a BCP-47 code with its region such as `en-US` or `de-DE`; `auto` (the default): the recorder's conversation language (docs/transcription.md maps each to a code), else automatic identification.",
    ),
  }),
  { language: 'auto' },
);
export type TranscribeBody = v.InferOutput<typeof TranscribeBody>;

const TrueFalse = v.picklist(['true', 'false'], 'must be true or false');

/** The export formats (shared/transcription/transcript-formats.ts renders them; a unit test holds the two lists equal). */
export const TRANSCRIPT_FORMAT_NAMES = ['json', 'vtt', 'srt', 'txt'] as const;

/** Query of Get transcript (both hosts). */
export const TranscriptExportQuery = v.strictObject({
  format: described(
    v.optional(v.picklist(TRANSCRIPT_FORMAT_NAMES, `must be one of ${TRANSCRIPT_FORMAT_NAMES.join(', ')}`), 'json'),
    '`json` (the default): `{recording_id, language, text, segments}`; `vtt`: WebVTT with `<v Speaker 1>` voice tags; `srt`: SubRip; `txt`: one `Speaker: text` line per turn.',
  ),
  download: described(
    v.optional(TrueFalse, 'false'),
    'true adds `Content-Disposition: attachment` with a file name made from the title, so a browser saves it.',
  ),
  language: described(
    v.optional(TranslationLanguage),
    "A language the recording was translated into (Translate recording), such as `es`: the translated transcript, same times and speakers; 404 TRANSLATION_NOT_FOUND when there is no completed translation into it. Absent, or the transcript's own language: the transcript.",
  ),
});
export type TranscriptExportQuery = v.InferOutput<typeof TranscriptExportQuery>;

/** A UTC calendar month, YYYY-MM. */
export const Month = v.pipe(
  v.string('must be a string'),
  v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month YYYY-MM'),
  admitsAtMost('YYYY-MM'.length),
);

/** Query of Get usage. */
export const UsageQuery = v.strictObject({
  month: described(v.optional(Month), 'The UTC calendar month, YYYY-MM; absent: the current one.'),
  limit: integerParam({ defaultValue: 50, min: 1, max: 100, description: 'Members per page.' }),
  cursor: described(
    v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
    "The previous page's `pagination.next_cursor`, with the same month: the next page of members.",
  ),
});
export type UsageQuery = v.InferOutput<typeof UsageQuery>;
