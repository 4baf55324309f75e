import {
  completedTranslation,
  failedTranslation,
  processingTranslation,
  queuedTranslation,
  translationView,
} from '../../../shared/domain/translations/translation-changes';
import { markdownLinesOf, markdownOf } from '../../../shared/domain/translations/summary-lines';
import { translationEventsOf } from '../../../shared/events/translation-events';
import type { Recording } from '../../../shared/storage/recording-items';
import { CONVERSATION_LANGUAGES } from '../../../shared/core/settings-catalog';
import { TRANSLATION_LANGUAGE_CODES } from '../../../shared/core/translation-languages';
import { CONVERSATION_TRANSLATION_CODES, translationCodeOfTag } from '../../../shared/translation/languages';

/** The translation's transitions on the recording and the events their changes give: queued, completed, failed; ids and codes only. */
const base: Recording = {
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Call',
  description: '',
  duration: 12,
  language: 'en-US',
  tags: [],
  folder_id: null,
  state: 'ready',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  recording_at: '2030-01-01T00:00:00.000Z',
  related: { transcript: true, summary: false, action_items: false, translation: false },
};
const now = new Date('2030-01-01T00:00:05.000Z');
const later = new Date('2030-01-01T00:00:09.000Z');

describe('translation events', () => {
  const queued = queuedTranslation(base, now, { id: 'trl_1', from: 'en', to: 'es' });
  const processing = processingTranslation(queued, now);
  const ids = { translation_id: 'trl_1', from_language: 'en', to_language: 'es' };

  it('a new translation is queued once, and processing says nothing', () => {
    expect(translationEventsOf(base, queued)).toEqual([{ type: 'recording.translation_queued', data: ids, occurredAt: now.toISOString() }]);
    expect(translationEventsOf(queued, processing)).toEqual([]);
    expect(translationEventsOf(queued, { ...queued, title: 'Renamed' })).toEqual([]);
  });

  it('a completion counts the segments; a failure gives its code, never its reason', () => {
    const completed = completedTranslation(processing, later, 42);
    expect(translationEventsOf(processing, completed)).toEqual([
      { type: 'recording.translation_completed', data: { ...ids, segment_count: 42 }, occurredAt: later.toISOString() },
    ]);
    expect(translationEventsOf(completed, { ...completed, title: 'Renamed' })).toEqual([]);
    const failed = failedTranslation(processing, later, {
      code: 'UNSUPPORTED_LANGUAGE_PAIR',
      reason: 'Unsupported language pair: en to fr.\nsecond line',
    });
    expect(translationEventsOf(processing, failed)).toEqual([
      { type: 'recording.translation_failed', data: { ...ids, error_code: 'UNSUPPORTED_LANGUAGE_PAIR' }, occurredAt: later.toISOString() },
    ]);
    expect(failed.translation_error).toBe('UNSUPPORTED_LANGUAGE_PAIR: Unsupported language pair: en to fr. second line');
    expect(translationView(failed.translation)).toEqual({
      id: 'trl_1',
      created_at: now.toISOString(),
      updated_at: later.toISOString(),
      detected_language: 'en',
      to_language: 'es',
      processing_status: 'failed',
      error_message: 'Unsupported language pair: en to fr. second line',
    });
  });

  it('a new request after a failure is the next attempt, without the previous error', () => {
    const failed = failedTranslation(processing, later, { code: 'TRANSLATION_FAILED', reason: 'x' });
    const again = queuedTranslation(failed, later, { id: 'trl_2', from: 'en', to: 'fr' });
    expect(again.translation).toMatchObject({ id: 'trl_2', attempt: 2, status: 'queued' });
    expect(again.translation_error).toBeUndefined();
    expect(Date.parse(again.updated_at)).toBeGreaterThan(Date.parse(failed.updated_at) - 1);
    expect(translationEventsOf(failed, again)).toEqual([
      {
        type: 'recording.translation_queued',
        data: { translation_id: 'trl_2', from_language: 'en', to_language: 'fr' },
        occurredAt: later.toISOString(),
      },
    ]);
  });
});

describe('languages and summary lines', () => {
  it('reads a transcript tag as the Translate code of its language, a known variant whole', () => {
    expect(['en-US', 'pt-BR', 'pt-PT', 'zh-TW', 'zh-CN', 'es-US', 'en', 'fr-CA', 'xx-YY', ''].map(translationCodeOfTag)).toEqual([
      'en',
      'pt',
      'pt-PT',
      'zh-TW',
      'zh',
      'es',
      'en',
      'fr-CA',
      undefined,
      undefined,
    ]);
  });

  it('maps every conversation language to a code Translate knows, and knows 75 codes, each once', () => {
    expect(Object.keys(CONVERSATION_TRANSLATION_CODES).sort()).toEqual([...CONVERSATION_LANGUAGES].sort());
    for (const code of Object.values(CONVERSATION_TRANSLATION_CODES)) expect(TRANSLATION_LANGUAGE_CODES).toContain(code);
    expect(new Set(TRANSLATION_LANGUAGE_CODES).size).toBe(75);
    expect(TRANSLATION_LANGUAGE_CODES).toHaveLength(75);
  });

  it('keeps headings, list marks and task boxes out of the text to translate', () => {
    const lines = markdownLinesOf('## Overview\nThe budget.\n\n- [ ] Maria sends it\n1. First');
    expect(lines.map((line) => line.text)).toEqual(['Overview', 'The budget.', '', 'Maria sends it', 'First']);
    expect(markdownOf(lines, ['Resumen', 'El presupuesto.', '', 'Maria lo envía', 'Primero'])).toBe(
      '## Resumen\nEl presupuesto.\n\n- [ ] Maria lo envía\n1. Primero',
    );
  });
});
