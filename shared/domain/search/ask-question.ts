import type { Caller } from '../../auth/policy';
import type { Answerer, AnswerSource } from '../../search/answerer';
import { cutAround } from '../../search/highlights';
import { createdWithin } from './search-recordings';
import type { SearchIndex } from '../../search/search-index';

/** Passages an answer is written from, best first. */
export const ASK_SOURCES = 8;
export const NOTHING_FOUND = 'I found nothing in your recordings about that.';

export interface AskBody {
  question: string;
  recorded_by?: string;
  /** UTC days, YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
}

export interface Citation {
  recording_id: string;
  title: string;
  start_time: number | null;
  end_time: number | null;
  speaker: string | null;
  quote: string;
}

/**
 * Ask (both hosts): an answer written only from the organization's passages that match the
 * question best, each claim tied to a citation (`[1]` is the first of `citations`). With
 * nothing relevant, it says so and cites nothing. The organization, and a personal key's owner,
 * bound the passages as in Search. Each question counts against the organization's daily
 * allowance first (429 QUOTA_EXCEEDED beyond it).
 */
export async function askQuestion(
  deps: { index: SearchIndex; answerer: Answerer; takeQuestion: (orgId: string) => Promise<void> },
  caller: Caller,
  body: AskBody,
): Promise<{ answer: string; citations: Citation[]; model: string | null }> {
  await deps.takeQuestion(caller.orgId);
  const ownerOnly = caller.kind === 'user_key' ? caller.userId : undefined;
  if (ownerOnly && body.recorded_by && body.recorded_by !== ownerOnly) return { answer: NOTHING_FOUND, citations: [], model: null };
  const hits = await deps.index.search({
    orgId: caller.orgId,
    words: body.question,
    anyWord: true,
    phrases: [],
    mode: deps.index.semantic ? 'hybrid' : 'keyword',
    fields: ['transcript', 'summary', 'action_items'],
    recordedBy: ownerOnly ?? body.recorded_by,
    ...createdWithin(body),
    size: ASK_SOURCES,
  });
  if (!hits.length) return { answer: NOTHING_FOUND, citations: [], model: null };
  const sources: AnswerSource[] = hits.map(({ passage, highlights }, index) => ({
    n: index + 1,
    recording_id: passage.recording_id,
    title: passage.title,
    start_time: passage.start_time,
    end_time: passage.end_time,
    speaker: passage.speaker,
    text: cutAround(passage.text, highlights).text,
  }));
  const written = await deps.answerer.answer(body.question, sources);
  return { ...renumbered(written.answer, written.cited, sources), model: written.model };
}

/**
 * The citations the answer uses, in the order it first cites them, and the answer with its
 * `[n]` renumbered to their places; a number that is not a source is dropped from the text.
 */
export function renumbered(answer: string, cited: number[], sources: AnswerSource[]): { answer: string; citations: Citation[] } {
  const order: number[] = [];
  for (const match of answer.matchAll(/\[(\d+)\]/g)) {
    const n = Number(match[1]);
    if (sources.some((source) => source.n === n) && !order.includes(n) && cited.includes(n)) order.push(n);
  }
  const text = answer.replace(/\[(\d+)\]/g, (_, n: string) => (order.includes(Number(n)) ? `[${order.indexOf(Number(n)) + 1}]` : ''));
  const citations = order.map((n) => {
    const source = sources.find((candidate) => candidate.n === n)!;
    return {
      recording_id: source.recording_id,
      title: source.title,
      start_time: source.start_time,
      end_time: source.end_time,
      speaker: source.speaker,
      quote: source.text,
    };
  });
  return { answer: text, citations };
}
