import * as v from 'valibot';
import { SEARCH_FIELDS, SEARCH_MODES, type SearchField } from '../core/search-fields';
import { Id } from './common';
import { described, envelope, NullableString } from './envelopes';
import { Day } from './recordings';
import { integerParam } from './validation';

/** The search's bounds (docs/search.md). */
export const SEARCH_LIMITS = { query: 500, language: 35, cursor: 1000 } as const;

const InList = v.pipe(
  v.string(),
  v.maxLength(SEARCH_FIELDS.join(',').length * 2, 'is too long'),
  v.transform((text) => [...new Set(text.split(',').map((name) => name.trim()))]),
  v.check(
    (names) => names.length > 0 && names.every((name) => (SEARCH_FIELDS as readonly string[]).includes(name)),
    `must be a comma list of ${SEARCH_FIELDS.join(', ')}`,
  ),
  v.transform((names) => names as SearchField[]),
);

export const SearchQuery = v.strictObject({
  q: described(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(SEARCH_LIMITS.query, `must be at most ${SEARCH_LIMITS.query} characters`),
    ),
    'What to find: words (all of them, in any case and inflection: "approve" finds "approved") and "quoted phrases" (as written).',
  ),
  mode: described(
    v.optional(v.picklist(SEARCH_MODES, `must be one of ${SEARCH_MODES.join(', ')}`), 'hybrid'),
    '`keyword`: the words; `semantic`: the meaning (409 SEMANTIC_SEARCH_UNAVAILABLE without an embedding model); `hybrid`: both, or the words alone without a model.',
  ),
  in: described(v.optional(InList, SEARCH_FIELDS.join(',')), `Where to look: a comma list of ${SEARCH_FIELDS.join(', ')}; default all.`),
  recorded_by: described(v.optional(Id), 'Only recordings made by this member (user id).'),
  from: described(v.optional(Day), 'Only recordings created on or after this UTC day (from midnight), YYYY-MM-DD.'),
  to: described(v.optional(Day), 'Only recordings created on or before this UTC day (until 23:59:59.999), YYYY-MM-DD.'),
  language: described(
    v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'),
        v.maxLength(SEARCH_LIMITS.language),
      ),
    ),
    "Only recordings in this language (the recording's `language`).",
  ),
  limit: integerParam({ defaultValue: 10, min: 1, max: 50, description: 'Recordings per page.' }),
  cursor: described(
    v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(SEARCH_LIMITS.cursor))),
    "The previous page's `next_cursor`, with the same query and filters.",
  ),
});
export type SearchQuery = v.InferOutput<typeof SearchQuery>;

const NullableSeconds = v.nullable(v.number());

export const SearchMatch = v.strictObject({
  field: described(v.picklist(SEARCH_FIELDS), 'Where it matched: `transcript`, `summary`, `action_items` or `title`.'),
  text: described(
    v.string(),
    'The matching passage (a speaker turn, a summary section, an action item or the title), cut around the match to at most 300 characters.',
  ),
  highlights: described(v.array(v.tuple([v.number(), v.number()])), 'The matched words: `[start, end)` character offsets into `text`.'),
  start_time: described(
    NullableSeconds,
    'Seconds into the recording where the passage starts; null where nothing is said (a title, a summary section).',
  ),
  end_time: described(NullableSeconds, 'Seconds into the recording where it ends.'),
  speaker: described(NullableString, 'The speaker of a transcript passage (`Speaker 1`, or the name given).'),
  summary_id: described(v.optional(v.string()), 'The summary a summary section or action item belongs to.'),
  action_item_id: described(v.optional(v.string()), 'The action item that matched.'),
});

export const SearchResult = v.strictObject({
  recording_id: described(v.string(), 'The recording.'),
  title: described(v.string(), 'Its title.'),
  recorded_by: described(v.string(), 'Who recorded it (user id).'),
  created_at: described(v.string(), 'When it was created.'),
  score: described(v.number(), 'How well it matched: higher is better; comparable within one answer only.'),
  matches: described(v.array(SearchMatch), 'Its best matches, best first (at most 5).'),
});

export const SearchResponse = v.strictObject({
  results: described(v.array(SearchResult), 'The matching recordings, best first.'),
  next_cursor: described(NullableString, 'Pass it as `cursor` for the next page; null on the last page.'),
});
export const PublicSearchResponse = envelope(described(SearchResponse, 'The matching recordings and the cursor.'));

export const ASK_LIMITS = { question: 1000 } as const;

export const AskBody = v.strictObject({
  question: described(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(ASK_LIMITS.question, `must be at most ${ASK_LIMITS.question} characters`),
    ),
    'The question, answered from what was said in the recordings.',
  ),
  recorded_by: described(v.optional(Id), 'Only recordings made by this member (user id).'),
  from: described(v.optional(Day), 'Only recordings created on or after this UTC day, YYYY-MM-DD.'),
  to: described(v.optional(Day), 'Only recordings created on or before this UTC day, YYYY-MM-DD.'),
});

export const Citation = v.strictObject({
  recording_id: described(v.string(), 'The recording quoted.'),
  title: described(v.string(), 'Its title.'),
  start_time: described(NullableSeconds, 'Seconds into the recording where the quote starts; null for a summary section.'),
  end_time: described(NullableSeconds, 'Seconds into the recording where it ends.'),
  speaker: described(NullableString, 'Who said it, for a transcript quote.'),
  quote: described(v.string(), 'The passage the claim rests on (at most 300 characters).'),
});

export const AskResponse = v.strictObject({
  answer: described(
    v.string(),
    'Markdown written only from the cited passages; `[1]` is the first citation. Says so when nothing relevant was found.',
  ),
  citations: described(v.array(Citation), 'The passages the answer cites, in the order of their numbers; empty when nothing was found.'),
  model: described(NullableString, 'The model that wrote the answer (`local-extractive` under npm start); null when nothing was found.'),
});
export const PublicAskResponse = envelope(described(AskResponse, 'The answer and its citations.'));
