import * as v from 'valibot';
import { SEARCH_FIELDS } from '../core/search-fields';
import { described, envelope, NullableString } from './envelopes';

/** Search's and Ask's answers (docs/search.md), for the OpenAPI document and the contract check. */

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
