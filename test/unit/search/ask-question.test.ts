import type { Caller } from '../../../shared/auth/policy';
import { askQuestion, NOTHING_FOUND, renumbered } from '../../../shared/domain/search/ask-question';
import { extractiveAnswerer, type AnswerSource } from '../../../shared/search/answerer';
import type { Passage } from '../../../shared/search/passages';
import type { PassageHit, PassageQuery, SearchIndex } from '../../../shared/search/search-index';

const passage = (recording: string, text: string): Passage =>
  ({
    id: `${recording}:transcript:0`,
    org_id: 'org_1',
    recording_id: recording,
    recorded_by: 'usr_1',
    title: `Meeting ${recording}`,
    field: 'transcript',
    text,
    start_time: 3,
    end_time: 7,
    speaker: 'Speaker 1',
  }) as Passage;

/** An index that answers fixed hits and records the queries it was asked. */
function indexOf(hits: PassageHit[]): SearchIndex & { queries: PassageQuery[] } {
  const queries: PassageQuery[] = [];
  return {
    semantic: false,
    queries,
    replaceRecording: () => Promise.resolve(),
    removeRecording: () => Promise.resolve(),
    search: (query) => {
      queries.push(query);
      return Promise.resolve(hits);
    },
    show: () => Promise.resolve([]),
  };
}

const orgKey = { kind: 'org_key', orgId: 'org_1' } as Caller;
const takeQuestion = () => Promise.resolve();
const miaKey = { kind: 'user_key', orgId: 'org_1', userId: 'usr_mia' } as Caller;

describe('askQuestion', () => {
  it('answers from the retrieved passages, each quote cited, citations in the order of their numbers', async () => {
    const index = indexOf([
      { passage: passage('rec_1', 'The budget is approved.'), score: 2, highlights: [[4, 10]], ref: 'd1' },
      { passage: passage('rec_2', 'Budget talk again.'), score: 1, highlights: [[0, 6]], ref: 'd2' },
    ]);
    const result = await askQuestion({ index, answerer: extractiveAnswerer(), takeQuestion }, orgKey, {
      question: 'What about the budget?',
    });
    expect(result.model).toBe('local-extractive');
    expect(result.citations.map((citation) => [citation.recording_id, citation.quote, citation.start_time])).toEqual([
      ['rec_1', 'The budget is approved.', 3],
      ['rec_2', 'Budget talk again.', 3],
    ]);
    expect(result.answer).toContain('"The budget is approved." [1]');
    expect(index.queries[0]).toMatchObject({ orgId: 'org_1', anyWord: true, words: 'What about the budget?' });
  });

  it('says it found nothing and cites nothing when no passage matches', async () => {
    const result = await askQuestion({ index: indexOf([]), answerer: extractiveAnswerer(), takeQuestion }, orgKey, {
      question: 'Who won the match?',
    });
    expect(result).toEqual({ answer: NOTHING_FOUND, citations: [], model: null });
  });

  it("bounds a personal key's question to its owner's recordings", async () => {
    const index = indexOf([]);
    await askQuestion({ index, answerer: extractiveAnswerer(), takeQuestion }, miaKey, { question: 'budget', recorded_by: 'usr_mia' });
    expect(index.queries[0].recordedBy).toBe('usr_mia');
    const other = await askQuestion({ index, answerer: extractiveAnswerer(), takeQuestion }, miaKey, {
      question: 'budget',
      recorded_by: 'usr_adam',
    });
    expect(other.citations).toEqual([]);
    expect(index.queries).toHaveLength(1);
  });
});

describe('renumbered', () => {
  const sources = [1, 2, 3].map((n): AnswerSource => ({
    n,
    recording_id: `rec_${n}`,
    title: '',
    start_time: null,
    end_time: null,
    speaker: null,
    text: `t${n}`,
  }));

  it('numbers citations in the order the answer first cites them, and drops numbers that are no source', () => {
    const result = renumbered('Yes [3], and [1]; also [3] and [9].', [1, 3], sources);
    expect(result.answer).toBe('Yes [1], and [2]; also [1] and .');
    expect(result.citations.map((citation) => citation.recording_id)).toEqual(['rec_3', 'rec_1']);
  });
});

describe('extractiveAnswerer', () => {
  const source = (n: number, text: string, start: number | null): AnswerSource => ({
    n,
    recording_id: 'rec_1',
    title: 'T',
    start_time: start,
    end_time: start,
    speaker: start === null ? null : 'Speaker 1',
    text,
  });

  it('quotes what was said before what was written about it, and skips a passage another one already holds', async () => {
    const answer = await extractiveAnswerer().answer('budget?', [
      source(1, 'The budget is approved.', null),
      source(2, 'Good morning. The budget is approved.', 4),
      source(3, 'Hiring starts in May.', 9),
    ]);
    expect(answer.cited).toEqual([2, 3]);
    expect(answer.answer.split('\n').slice(2)).toEqual([
      '- Speaker 1: "Good morning. The budget is approved." [2]',
      '- Speaker 1: "Hiring starts in May." [3]',
    ]);
  });
});
