import { cutAround, HIGHLIGHT_END, HIGHLIGHT_START, offsetsOf } from '../../../shared/search/highlights';
import { passagesOf } from '../../../shared/search/passages';
import type { SearchableRecording } from '../../../shared/storage/search-sources';
import type { Recording } from '../../../shared/storage/recording-items';
import type { SummaryRecord } from '../../../shared/storage/summary-items';

const recording = {
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Weekly budget review',
  language: 'en-US',
  created_at: '2026-11-02T09:00:00.000Z',
  related: { transcript: true, summary: true, action_items: true, translation: false },
} as Recording;

const summary = (status: SummaryRecord['status']): SummaryRecord =>
  ({
    id: `sum_${status}`,
    status,
    sections: [{ title: 'Decisions', markdown: 'The budget is approved.' }],
    action_items: [{ id: 'act_1', text: 'Send the contract', timestamp: 12.5 }],
  }) as SummaryRecord;

const source = (overrides: Partial<SearchableRecording> = {}): SearchableRecording => ({
  recording,
  segments: [
    { speaker: 'Speaker 1', text: 'Good morning everyone.', start: 0.4, end: 1.9 },
    { speaker: 'Speaker 2', text: 'The budget is approved.', start: 2.5, end: 4.1 },
  ],
  summaries: [summary('completed'), summary('processing')],
  ...overrides,
});

describe('passagesOf', () => {
  it('gives the title, each speaker turn with its times, and each completed summary section and action item', () => {
    const passages = passagesOf(source(), 7);
    expect(passages.map((p) => [p.id, p.field, p.start_time, p.speaker, p.summary_id, p.action_item_id])).toEqual([
      ['rec_1:title:0', 'title', null, null, null, null],
      ['rec_1:transcript:0', 'transcript', 0.4, 'Speaker 1', null, null],
      ['rec_1:transcript:1', 'transcript', 2.5, 'Speaker 2', null, null],
      ['rec_1:summary:sum_completed:0', 'summary', null, null, 'sum_completed', null],
      ['rec_1:action_items:sum_completed:act_1', 'action_items', 12.5, null, 'sum_completed', 'act_1'],
    ]);
    expect(passages.every((p) => p.generation === 7 && p.org_id === 'org_1' && p.recorded_by === 'usr_1')).toBe(true);
  });

  it('gives nothing for a recording in the trash', () => {
    expect(passagesOf(source({ recording: { ...recording, deleted_at: '2026-11-03T00:00:00.000Z' } }), 1)).toEqual([]);
  });

  it("includes a fixture's summary and action items, and skips empty text", () => {
    const passages = passagesOf(
      source({
        segments: [{ speaker: 'Speaker 1', text: '  ', start: 0, end: 1 }],
        summaries: [],
        loadedSummary: { markdown: 'Hiring plan', created_at: '', updated_at: '' },
        loadedActionItems: [{ id: 'a1', text: 'Post the job', assignee: null, due_date: null, completed: false } as never],
      }),
      1,
    );
    expect(passages.map((p) => p.id)).toEqual(['rec_1:title:0', 'rec_1:summary:loaded', 'rec_1:action_items:loaded:a1']);
  });
});

describe('highlights', () => {
  it('turns marked words into offsets into the plain text', () => {
    const marked = `The ${HIGHLIGHT_START}budget${HIGHLIGHT_END} is ${HIGHLIGHT_START}approved${HIGHLIGHT_END}.`;
    expect(offsetsOf(marked)).toEqual({
      text: 'The budget is approved.',
      highlights: [
        [4, 10],
        [14, 22],
      ],
    });
  });

  it('cuts a long passage around its first match, at word boundaries, with offsets moved', () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`);
    words[80] = 'budget';
    const text = words.join(' ');
    const start = text.indexOf('budget');
    const cut = cutAround(text, [[start, start + 6]]);
    expect(cut.text.length).toBeLessThanOrEqual(300);
    expect(cut.text.slice(cut.highlights[0][0], cut.highlights[0][1])).toBe('budget');
    expect(cut.text.startsWith('w')).toBe(true);
    expect(text.includes(cut.text)).toBe(true);
  });

  it('leaves a short passage whole', () => {
    expect(cutAround('short', [[0, 5]])).toEqual({ text: 'short', highlights: [[0, 5]] });
  });
});
