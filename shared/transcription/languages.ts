import { CONVERSATION_LANGUAGES } from '../core/settings-catalog';
import { AUTO_LANGUAGE, canonicalLanguageCode } from '../core/transcription-languages';

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

export type TranscriptionLanguage = { languageCode: string } | { identify: true };

/**
 * The language to ask the engine for: the request's code wins; `auto` or no request falls back
 * to the member's conversation_language; a display name outside the table (or none) asks the
 * engine to identify the language. The request schema admits only the codes Transcribe knows
 * (shared/core/transcription-languages.ts): an unknown code here is a programming error and throws.
 */
export function transcriptionLanguageFor(requested: string | undefined, conversationLanguage: string | undefined): TranscriptionLanguage {
  if (requested !== undefined && requested.trim().toLowerCase() !== AUTO_LANGUAGE) {
    const languageCode = canonicalLanguageCode(requested);
    if (!languageCode) throw new Error(`Not a Transcribe language code: ${requested.slice(0, 20)}`);
    return { languageCode };
  }
  const mapped =
    conversationLanguage === undefined ? undefined : TRANSCRIPTION_LANGUAGE_CODES[conversationLanguage as ConversationLanguage];
  return mapped ? { languageCode: mapped } : { identify: true };
}
