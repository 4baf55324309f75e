/**
 * The languages Amazon Translate translates between (its "Supported languages and language
 * codes" page, November 2026): ISO 639-1 codes, and the country variants it knows written as
 * RFC 5646 (`fr-CA`, `pt-PT`). The request of Translate recording admits these only, so a code
 * Translate does not know is a 400, never a failed translation. In core, because the request
 * schema and the engine's adapter both read it.
 */
export const TRANSLATION_LANGUAGE_CODES = [
  'af', 'sq', 'am', 'ar', 'hy', 'az', 'bn', 'bs', 'bg', 'ca', 'zh', 'zh-TW', 'hr', 'cs', 'da', 'fa-AF', 'nl', 'en', 'et', 'fa',
  'tl', 'fi', 'fr', 'fr-CA', 'ka', 'de', 'el', 'gu', 'ht', 'ha', 'he', 'hi', 'hu', 'is', 'id', 'ga', 'it', 'ja', 'kn', 'kk',
  'ko', 'lv', 'lt', 'mk', 'ms', 'ml', 'mt', 'mr', 'mn', 'no', 'ps', 'pl', 'pt', 'pt-PT', 'pa', 'ro', 'ru', 'sr', 'si', 'sk',
  'sl', 'so', 'es', 'es-MX', 'sw', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'uz', 'vi', 'cy',
] as const;

export type TranslationLanguageCode = (typeof TRANSLATION_LANGUAGE_CODES)[number];
