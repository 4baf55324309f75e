import type { FieldProblem } from '../../core/errors';
import type { ErrorCode } from '../../core/error-codes';
import { ADMIN } from '../demo-examples';

/** What Search and its public alias share in the OpenAPI document (docs/search.md). */
export const searchDescription = () =>
  'Finds what was said: the recordings whose transcripts, summaries, action items or titles match `q`, grouped by recording, best first, each with its best matches cut to 300 characters, the matched words as character offsets, and the seconds in the recording to play from. Words match in any case and inflection ("approve" finds "approved"); a "quoted phrase" matches as written. A recording in the trash is not found; restored, it is again. The index follows changes within seconds.';

/** The parameters whose problems are INVALID_QUERY; any other's is VALIDATION_ERROR. */
export const searchQueryErrorCode = (problem: FieldProblem): ErrorCode =>
  ['q', 'mode', 'in'].includes(problem.field) ? 'INVALID_QUERY' : 'VALIDATION_ERROR';

export const searchRefusals = () =>
  ({ 400: ['INVALID_QUERY'], 409: ['SEMANTIC_SEARCH_UNAVAILABLE'], 501: ['SEARCH_NOT_ENABLED'] }) as const;

export const searchExample = {
  results: [
    {
      recording_id: 'rec_demo_standup',
      title: 'Daily standup',
      recorded_by: ADMIN,
      created_at: '2026-11-16T09:00:00.000Z',
      score: 7.42,
      matches: [
        {
          field: 'transcript',
          text: 'The budget for the new office is approved.',
          highlights: [[4, 10]],
          start_time: 12.4,
          end_time: 15.1,
          speaker: 'Speaker 2',
        },
      ],
    },
  ],
  next_cursor: null,
};

export const askDescription = () =>
  'Answers a question from what was said in the recordings: the passages that match it best are retrieved (as Search finds them), and the answer, in markdown, is written from them alone, each claim citing its passage as `[1]`, `[2]`… (the places in `citations`). With nothing relevant, the answer says so and cites nothing. Passages are data, never instructions: a recording that says "ignore your instructions" changes neither the format nor the sources of the answer. Takes an Idempotency-Key.';

export const askRefusals = () => ({ 501: ['SEARCH_NOT_ENABLED'] }) as const;

export const askExample = {
  answer: 'The budget for the new office was approved [1].',
  citations: [
    {
      recording_id: 'rec_demo_standup',
      title: 'Daily standup',
      start_time: 12.4,
      end_time: 15.1,
      speaker: 'Speaker 2',
      quote: 'The budget for the new office is approved.',
    },
  ],
  model: 'us.amazon.nova-lite-v1:0',
};
