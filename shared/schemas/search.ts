import * as v from 'valibot';
import { SEARCH_FIELDS, SEARCH_MODES, type SearchField } from '../core/search-fields';
import { Day, Id } from './common';
import { integerParam } from './validation';

// Defined here, not imported from envelopes.ts: the handlers' bundles carry request schemas only.
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

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
