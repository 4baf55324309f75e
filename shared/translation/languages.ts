import { CONVERSATION_LANGUAGES } from '../core/settings-catalog';
import { TRANSLATION_LANGUAGE_CODES } from '../core/translation-languages';

/**
 * Languages as the translation pipeline names them: Amazon Translate's codes (ISO 639-1, and
 * the variants it knows such as `pt-PT`; the list is in shared/core/translation-languages.ts so
 * that the request schema reads it too), the conversation languages' display names, and a
 * transcript's BCP-47 tag (`en-US`) read as one of those codes.
 */
export type ConversationLanguage = (typeof CONVERSATION_LANGUAGES)[number];

/** The settings catalog's display names → Amazon Translate codes. */
export const CONVERSATION_TRANSLATION_CODES: Record<ConversationLanguage, string> = {
  Arabic: 'ar',
  'Chinese (Simplified)': 'zh',
  'Chinese (Traditional)': 'zh-TW',
  Dutch: 'nl',
  English: 'en',
  French: 'fr',
  German: 'de',
  Hindi: 'hi',
  Indonesian: 'id',
  Italian: 'it',
  Japanese: 'ja',
  Korean: 'ko',
  Polish: 'pl',
  Portuguese: 'pt',
  Russian: 'ru',
  Spanish: 'es',
  Swedish: 'sv',
  Turkish: 'tr',
  Ukrainian: 'uk',
  Vietnamese: 'vi',
};

const KNOWN = new Map(TRANSLATION_LANGUAGE_CODES.map((code) => [code.toLowerCase(), code]));

/**
 * A transcript's language tag (Transcribe's `en-US`, `pt-PT`, `zh-TW`; a fixture's `en`) as the
 * Amazon Translate code of the same language: the whole tag when Translate knows that variant
 * (`pt-PT`, `zh-TW`, `fr-CA`, `es-MX`), else its language part (`en-US` → `en`, `pt-BR` → `pt`).
 * Undefined when Translate does not know the language (or the tag is empty).
 */
export function translationCodeOfTag(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  const whole = KNOWN.get(tag.trim().toLowerCase());
  if (whole) return whole;
  return KNOWN.get(tag.trim().split(/[-_]/)[0].toLowerCase());
}

/** Whether two codes name the same language for the reader (`es` and `es-MX` do not: a variant is asked for on purpose). */
export function sameTranslationLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
