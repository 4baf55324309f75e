import type { Caller } from '../../auth/policy';
import { ApiError, ConflictError } from '../../core/errors';
import { keysetCursor } from '../../core/keyset-cursor';
import { cutAround } from '../../search/highlights';
import type { SearchField } from '../../search/passages';
import type { PassageHit, PassageQuery, SearchIndex, SearchMode } from '../../search/search-index';

/** How many passages one search weighs, best first: results page through the recordings they come from. */
export const SEARCH_DEPTH = 500;
/** The most matches one recording shows in a result. */
export const MATCHES_PER_RECORDING = 5;

export interface SearchRequest {
  q: string;
  mode: SearchMode;
  in: readonly SearchField[];
  recorded_by?: string;
  /** UTC days, YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
  language?: string;
  limit: number;
  cursor?: string;
}

export interface SearchMatch {
  field: SearchField;
  text: string;
  highlights: [number, number][];
  start_time: number | null;
  end_time: number | null;
  speaker: string | null;
  summary_id?: string;
  action_item_id?: string;
}

export interface SearchResult {
  recording_id: string;
  title: string;
  recorded_by: string;
  created_at: string;
  score: number;
  matches: SearchMatch[];
}

/** The quoted phrases of `q`, and the rest as words: `"budget approved" hire` → one phrase, one word. */
export function parseQuery(q: string): { words: string; phrases: string[] } {
  const phrases: string[] = [];
  const words = q.replace(/"([^"]*)"/g, (_, phrase: string) => {
    if (phrase.trim()) phrases.push(phrase.trim());
    return ' ';
  });
  // An unmatched quote is a word boundary, not a phrase.
  return { words: words.replace(/"/g, ' ').replace(/\s+/g, ' ').trim(), phrases };
}

const resultsCursor = keysetCursor<number, { orgId: string; request: SearchRequest; recordedBy?: string }>({
  bindsTo: ({ orgId, request, recordedBy }) => [
    'search',
    orgId,
    recordedBy ?? null,
    request.q,
    request.mode,
    [...request.in],
    request.recorded_by ?? null,
    request.from ?? null,
    request.to ?? null,
    request.language ?? null,
  ],
  write: (offset) => ({ o: offset }),
  read: ({ o }) => (typeof o === 'number' && Number.isInteger(o) && o > 0 && o < SEARCH_DEPTH ? o : undefined),
});

/** A deployment without search (`-c search=off`): 501, the capability is missing, not the caller's right. */
export const searchNotEnabled = () =>
  new ApiError(
    501,
    'SEARCH_NOT_ENABLED',
    'This deployment has no search: its operator deploys it with -c search=opensearch (docs/search.md).',
  );

export const semanticUnavailable = () =>
  new ConflictError('SEMANTIC_SEARCH_UNAVAILABLE', 'This deployment has no embedding model: use mode=keyword or mode=hybrid.');

/**
 * Search (both hosts): the recordings whose passages match, grouped by recording, best first.
 * The organization is the caller's and a personal key searches only its owner's recordings,
 * whatever the request says; the cursor is bound to the query and its filters.
 */
export async function searchRecordings(
  deps: { index: SearchIndex },
  caller: Caller,
  request: SearchRequest,
): Promise<{ results: SearchResult[]; next_cursor: string | null }> {
  if (request.mode === 'semantic' && !deps.index.semantic) throw semanticUnavailable();
  const ownerOnly = caller.kind === 'user_key' ? caller.userId : undefined;
  const filter = { orgId: caller.orgId, request, recordedBy: ownerOnly };
  const offset = request.cursor ? resultsCursor.decode(request.cursor, filter) : 0;
  if (ownerOnly && request.recorded_by && request.recorded_by !== ownerOnly) return { results: [], next_cursor: null };
  const { words, phrases } = parseQuery(request.q);
  const query: PassageQuery = {
    orgId: caller.orgId,
    words,
    phrases,
    mode: deps.index.semantic ? request.mode : 'keyword',
    fields: request.in,
    recordedBy: ownerOnly ?? request.recorded_by,
    ...createdWithin(request),
    language: request.language,
    size: SEARCH_DEPTH,
  };
  // Rank the best passages by their ids alone, then fetch (and highlight) only those the page shows.
  const groups = await rankedRecordings(deps.index, query, offset + request.limit + 1);
  const page = groups.slice(offset, offset + request.limit);
  const shown = await deps.index.show(
    query,
    page.flatMap((group) => group.refs),
  );
  const byRef = new Map(shown.map((hit) => [hit.ref, hit]));
  const results = page.flatMap(({ score, refs }) => {
    const hits = refs.flatMap((ref) => byRef.get(ref) ?? []);
    // A recording deleted between the two reads has nothing left to show.
    if (!hits.length) return [];
    const { recording_id, title, recorded_by, created_at } = hits[0].passage;
    return [{ recording_id, title, recorded_by, created_at, score, matches: hits.map(matchOf) }];
  });
  const next = offset + request.limit;
  return { results, next_cursor: next < groups.length ? resultsCursor.encode(next, filter) : null };
}

/**
 * The recordings of the best passages, enough of them to fill the page and tell whether another
 * follows: as deep as the page needs (twice its matches), deeper only when a few recordings hold
 * most of the best passages, never past SEARCH_DEPTH. So a first page costs the same however
 * many passages match.
 */
async function rankedRecordings(index: SearchIndex, query: PassageQuery, wanted: number) {
  let depth = Math.min(SEARCH_DEPTH, wanted * MATCHES_PER_RECORDING * 2);
  for (;;) {
    const hits = await index.search({ ...query, size: depth, light: true });
    const groups = groupByRecording(hits);
    if (groups.length >= wanted || hits.length < depth || depth >= SEARCH_DEPTH) return groups;
    depth = Math.min(SEARCH_DEPTH, depth * 4);
  }
}

/** A request's UTC days (YYYY-MM-DD, inclusive) as bounds on the recordings' `created_at`. */
export const createdWithin = ({ from, to }: { from?: string; to?: string }) => ({
  from: from && `${from}T00:00:00.000Z`,
  to: to && `${to}T23:59:59.999Z`,
});

/** Hits grouped by recording, in the order of each recording's best hit: its score and its best (at most 5) passages' refs. */
export function groupByRecording(hits: PassageHit[]): { recording_id: string; score: number; refs: string[] }[] {
  const byRecording = new Map<string, { recording_id: string; score: number; refs: string[] }>();
  for (const { passage, score, ref } of [...hits].sort((a, b) => b.score - a.score)) {
    let group = byRecording.get(passage.recording_id);
    if (!group) byRecording.set(passage.recording_id, (group = { recording_id: passage.recording_id, score, refs: [] }));
    if (group.refs.length < MATCHES_PER_RECORDING) group.refs.push(ref);
  }
  return [...byRecording.values()];
}

/** A shown passage as a match: cut around its first highlight to at most 300 characters. */
function matchOf({ passage, highlights }: PassageHit): SearchMatch {
  const shown = cutAround(passage.text, highlights);
  return {
    field: passage.field,
    text: shown.text,
    highlights: shown.highlights,
    start_time: passage.start_time,
    end_time: passage.end_time,
    speaker: passage.speaker,
    ...(passage.summary_id && { summary_id: passage.summary_id }),
    ...(passage.action_item_id && { action_item_id: passage.action_item_id }),
  };
}
