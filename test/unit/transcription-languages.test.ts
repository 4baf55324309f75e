import { LanguageCode } from '@aws-sdk/client-transcribe';
import { CONVERSATION_LANGUAGES } from '../../shared/core/settings-catalog';
import {
  canonicalLanguageCode,
  isTranscriptionLanguage,
  TRANSCRIBE_LANGUAGE_CODES,
  TRANSCRIPTION_LANGUAGE_CODES,
  transcriptionLanguageFor,
} from '../../shared/transcription/languages';

describe('Transcription languages', () => {
  it("lists exactly the Transcribe SDK's batch language codes (the copy follows the pinned client)", () => {
    expect([...TRANSCRIBE_LANGUAGE_CODES].sort()).toEqual(Object.values(LanguageCode).sort());
  });

  it("maps every conversation language of the settings catalog to a code Transcribe knows", () => {
    expect(Object.keys(TRANSCRIPTION_LANGUAGE_CODES).sort()).toEqual([...CONVERSATION_LANGUAGES].sort());
    for (const code of Object.values(TRANSCRIPTION_LANGUAGE_CODES)) expect(TRANSCRIBE_LANGUAGE_CODES).toContain(code);
    expect(TRANSCRIPTION_LANGUAGE_CODES).toMatchObject({ English: 'en-US', German: 'de-DE', French: 'fr-FR', 'Chinese (Simplified)': 'zh-CN' });
  });

  it("reads requested codes in any case, as BCP-47 allows, and knows `auto`", () => {
    expect(canonicalLanguageCode('en-us')).toBe('en-US');
    expect(canonicalLanguageCode(' DE-de ')).toBe('de-DE');
    expect(canonicalLanguageCode('ckb-iq')).toBe('ckb-IQ');
    expect(canonicalLanguageCode('en')).toBeUndefined();
    expect(canonicalLanguageCode('xx-XX')).toBeUndefined();
    expect(['auto', 'AUTO', 'en-US', 'pt-pt'].map(isTranscriptionLanguage)).toEqual([true, true, true, true]);
    expect(['', 'english', 'en_US', 'en-US-x'].map(isTranscriptionLanguage)).toEqual([false, false, false, false]);
  });

  it("takes the request's code first, then the member's language, then identification", () => {
    expect(transcriptionLanguageFor('fr-ca', 'German')).toEqual({ languageCode: 'fr-CA' });
    expect(transcriptionLanguageFor('auto', 'German')).toEqual({ languageCode: 'de-DE' });
    expect(transcriptionLanguageFor(undefined, 'English')).toEqual({ languageCode: 'en-US' });
    expect(transcriptionLanguageFor(undefined, 'Klingon')).toEqual({ identify: true });
    expect(transcriptionLanguageFor('auto', undefined)).toEqual({ identify: true });
    // The route validates first: an unknown code reaching here is a bug, not a fallback.
    expect(() => transcriptionLanguageFor('xx-XX', 'English')).toThrow(/Not a Transcribe language code/);
  });
});
