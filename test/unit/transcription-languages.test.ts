import { LanguageCode } from '@aws-sdk/client-transcribe';
import { CONVERSATION_LANGUAGES } from '../../shared/core/settings-catalog';
import * as v from 'valibot';
import { canonicalLanguageCode, TRANSCRIBE_LANGUAGE_CODES } from '../../shared/core/transcription-languages';
import { TranscribeBody } from '../../shared/schemas/transcription';
import { TRANSCRIPTION_LANGUAGE_CODES, transcriptionLanguageFor } from '../../shared/transcription/languages';

describe('Transcription languages', () => {
  it("lists exactly the Transcribe SDK's batch language codes (the copy follows the pinned client)", () => {
    expect([...TRANSCRIBE_LANGUAGE_CODES].sort()).toEqual(Object.values(LanguageCode).sort());
  });

  it('maps every conversation language of the settings catalog to a code Transcribe knows', () => {
    expect(Object.keys(TRANSCRIPTION_LANGUAGE_CODES).sort()).toEqual([...CONVERSATION_LANGUAGES].sort());
    for (const code of Object.values(TRANSCRIPTION_LANGUAGE_CODES)) expect(TRANSCRIBE_LANGUAGE_CODES).toContain(code);
    expect(TRANSCRIPTION_LANGUAGE_CODES).toMatchObject({
      English: 'en-US',
      German: 'de-DE',
      French: 'fr-FR',
      'Chinese (Simplified)': 'zh-CN',
    });
  });

  it('reads requested codes in any case, as BCP-47 allows', () => {
    expect(canonicalLanguageCode('en-us')).toBe('en-US');
    expect(canonicalLanguageCode(' DE-de ')).toBe('de-DE');
    expect(canonicalLanguageCode('ckb-iq')).toBe('ckb-IQ');
    expect(canonicalLanguageCode('en')).toBeUndefined();
    expect(canonicalLanguageCode('xx-XX')).toBeUndefined();
  });

  it('Transcribe recording accepts `auto` and the codes Transcribe knows, and refuses any other with a 400 before a job is asked for', () => {
    for (const language of ['auto', 'en-US', 'ckb-IQ', 'pt-PT']) expect(v.safeParse(TranscribeBody, { language }).success).toBe(true);
    for (const language of ['da-AA', 'xx-XX', 'en', 'english', 'en_US', 'en-US-x', ''])
      expect(v.safeParse(TranscribeBody, { language }).success).toBe(false);
    expect(v.parse(TranscribeBody, undefined)).toEqual({ language: 'auto' });
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
