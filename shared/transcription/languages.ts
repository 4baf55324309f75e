import { CONVERSATION_LANGUAGES } from '../core/settings-catalog';

/**
 * Which language a transcription job is asked for. A request names a BCP-47 code that Amazon
 * Transcribe's batch jobs know (or `auto`); otherwise the recorder's conversation_language, a
 * display name from the settings catalog, maps to a code here; otherwise Transcribe identifies
 * the language itself. The table is documented in docs/transcription.md.
 */
export type ConversationLanguage = (typeof CONVERSATION_LANGUAGES)[number];

/**
 * The settings catalog's display names → Transcribe language codes. Where Transcribe knows
 * several variants, the one with the most speakers (Portuguese → pt-BR, Spanish → es-ES for
 * Europe's, Arabic → ar-SA for Modern Standard Arabic); a request can name any other variant.
 */
export const TRANSCRIPTION_LANGUAGE_CODES: Record<ConversationLanguage, string> = {
  Arabic: 'ar-SA',
  'Chinese (Simplified)': 'zh-CN',
  'Chinese (Traditional)': 'zh-TW',
  Dutch: 'nl-NL',
  English: 'en-US',
  French: 'fr-FR',
  German: 'de-DE',
  Hindi: 'hi-IN',
  Indonesian: 'id-ID',
  Italian: 'it-IT',
  Japanese: 'ja-JP',
  Korean: 'ko-KR',
  Polish: 'pl-PL',
  Portuguese: 'pt-BR',
  Russian: 'ru-RU',
  Spanish: 'es-ES',
  Swedish: 'sv-SE',
  Turkish: 'tr-TR',
  Ukrainian: 'uk-UA',
  Vietnamese: 'vi-VN',
};

/**
 * Amazon Transcribe's batch language codes (the SDK's LanguageCode enum, @aws-sdk/client-transcribe
 * 3.1141.0; test/unit/transcription-languages.test.ts keeps the two equal). Copied rather than
 * imported so that a route validating a request does not bundle the Transcribe client.
 */
export const TRANSCRIBE_LANGUAGE_CODES = [
  'ab-GE', 'af-ZA', 'am-ET', 'ar-AE', 'ar-SA', 'ast-ES', 'az-AZ', 'ba-RU', 'be-BY', 'bg-BG', 'bn-IN', 'bs-BA',
  'ca-ES', 'ckb-IQ', 'ckb-IR', 'cs-CZ', 'cy-GB', 'cy-WL', 'da-DK', 'de-CH', 'de-DE', 'el-GR', 'en-AB', 'en-AU',
  'en-GB', 'en-IE', 'en-IN', 'en-NZ', 'en-US', 'en-WL', 'en-ZA', 'es-ES', 'es-MX', 'es-US', 'et-EE', 'et-ET',
  'eu-ES', 'fa-AF', 'fa-IR', 'fi-FI', 'fr-CA', 'fr-FR', 'ga-IE', 'gd-GB', 'gl-ES', 'gu-IN', 'ha-NG', 'he-IL',
  'hi-IN', 'hr-HR', 'ht-HT', 'hu-HU', 'hy-AM', 'id-ID', 'is-IS', 'it-IT', 'ja-JP', 'jv-ID', 'kab-DZ', 'ka-GE',
  'kk-KZ', 'km-KH', 'kn-IN', 'ko-KR', 'ky-KG', 'lg-IN', 'lt-LT', 'lv-LV', 'mhr-RU', 'mi-NZ', 'mk-MK', 'ml-IN',
  'mn-MN', 'mr-IN', 'ms-MY', 'mt-MT', 'my-MM', 'ne-NP', 'nl-NL', 'no-NO', 'or-IN', 'pa-IN', 'pl-PL', 'ps-AF',
  'pt-BR', 'pt-PT', 'ro-RO', 'ru-RU', 'rw-RW', 'si-LK', 'sk-SK', 'sl-SI', 'so-SO', 'sq-AL', 'sr-RS', 'su-ID',
  'sv-SE', 'sw-BI', 'sw-KE', 'sw-RW', 'sw-TZ', 'sw-UG', 'ta-IN', 'te-IN', 'th-TH', 'tl-PH', 'tr-TR', 'tt-RU',
  'ug-CN', 'uk-UA', 'uz-UZ', 'vi-VN', 'wo-SN', 'zh-CN', 'zh-HK', 'zh-TW', 'zu-ZA',
] as const;

/** The word a request uses to ask for automatic identification (or the member's language). */
export const AUTO_LANGUAGE = 'auto';

const CANONICAL = new Map<string, string>(TRANSCRIBE_LANGUAGE_CODES.map((code) => [code.toLowerCase(), code]));

/** A requested code in Transcribe's spelling (BCP-47 tags are case-insensitive: en-us → en-US); undefined when Transcribe does not know it. */
export function canonicalLanguageCode(requested: string): string | undefined {
  return CANONICAL.get(requested.trim().toLowerCase());
}

/** Whether a request's language is acceptable: `auto` or a Transcribe batch code, in any case. */
export function isTranscriptionLanguage(requested: string): boolean {
  return requested.trim().toLowerCase() === AUTO_LANGUAGE || canonicalLanguageCode(requested) !== undefined;
}

export type TranscriptionLanguage = { languageCode: string } | { identify: true };

/**
 * The language to ask the engine for: the request's code wins; `auto` or no request falls back
 * to the member's conversation_language; a display name outside the table (or none) asks the
 * engine to identify the language. The route validates the request first
 * (isTranscriptionLanguage): an unknown code here is a programming error and throws.
 */
export function transcriptionLanguageFor(requested: string | undefined, conversationLanguage: string | undefined): TranscriptionLanguage {
  if (requested !== undefined && requested.trim().toLowerCase() !== AUTO_LANGUAGE) {
    const languageCode = canonicalLanguageCode(requested);
    if (!languageCode) throw new Error(`Not a Transcribe language code: ${requested.slice(0, 20)}`);
    return { languageCode };
  }
  const mapped = conversationLanguage === undefined ? undefined : TRANSCRIPTION_LANGUAGE_CODES[conversationLanguage as ConversationLanguage];
  return mapped ? { languageCode: mapped } : { identify: true };
}
