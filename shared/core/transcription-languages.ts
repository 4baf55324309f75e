/**
 * The languages a transcription may be asked for: Amazon Transcribe's batch codes and `auto`. In
 * the neutral leaf because the request schema (which refuses any other code with a 400) and the
 * engine's language choice (shared/transcription/languages.ts) both read them.
 */

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
