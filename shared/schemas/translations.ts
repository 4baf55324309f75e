import * as v from 'valibot';
import { TRANSLATION_LANGUAGE_CODES } from '../core/translation-languages';

// Local, as transcription.ts has it: a route's bundle carries its request schemas' module alone.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/* The translation routes' requests (docs/translations.md). */

/** A language Amazon Translate translates into: an ISO 639-1 code (`es`), or a variant it knows (`pt-PT`, `fr-CA`, `es-MX`, `zh-TW`, `fa-AF`). */
export const TranslationLanguage = v.picklist(
  TRANSLATION_LANGUAGE_CODES,
  'must be a language code Amazon Translate knows, such as es or pt-PT',
);

/** Body of Translate recording (both hosts). */
export const TranslateBody = v.strictObject({
  to_language: described(
    TranslationLanguage,
    'The language to translate the transcript and the latest summary into: an ISO 639-1 code such as `es`, or one of the variants Amazon Translate knows (`pt-PT`, `fr-CA`, `es-MX`, `zh-TW`, `fa-AF`).',
  ),
});
export type TranslateBody = v.InferOutput<typeof TranslateBody>;
