import { type Comparable, docValues } from './field-values';
import { highlightHit, parseHighlight } from './highlight';
import { evaluate, QueryContext } from './query';
import type { SearchIndex, StoredDocument } from './search-index';
import { illegalArgument, malformed, objectAt, onlyKeys, SearchError, textOf } from './search-error';
import { filterSource, parseSourceFilter } from './source-filter';

/**
 * _search, _count and _delete_by_query over the indices a path names: the query evaluated per
 * index, hits ordered by score (then _id, so that equal scores come in a stable order) or by the
 * request's sort, paged with from and size, answered in OpenSearch 2.x's shape.
 */
const MAX_RESULT_WINDOW = 10_000;
const SHARDS = { total: 1, successful: 1, skipped: 0, failed: 0 };

interface Hit {
  index: SearchIndex;
  document: StoredDocument;
  score: number;
  context: QueryContext;
  sortValues?: (Comparable | null)[];
}

interface SortKey {
  field: string;
  descending: boolean;
}

function integerOf(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw malformed(`[${name}] must be a non-negative integer, found [${textOf(raw)}]`);
  return value;
}

function parseSort(raw: unknown): SortKey[] | undefined {
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((entry): SortKey => {
    if (typeof entry === 'string') return { field: entry, descending: entry === '_score' };
    const entries = Object.entries(objectAt(entry, 'sort'));
    if (entries.length !== 1) throw malformed('each [sort] entry names one field');
    const [name, value] = entries[0];
    const options = typeof value === 'string' ? { order: value } : objectAt(value, `sort.${name}`);
    onlyKeys(options, ['order'], `[sort] on [${name}]`);
    const order = options.order ?? (name === '_score' ? 'desc' : 'asc');
    if (order !== 'asc' && order !== 'desc') throw malformed(`[sort] order of [${name}] must be asc or desc`);
    return { field: name, descending: order === 'desc' };
  });
}

/** A hit's value for a sort key: the smallest of a field's values ascending, the largest descending, as OpenSearch's default mode. */
function sortValue(hit: Hit, key: SortKey): Comparable | null {
  if (key.field === '_score') return hit.score;
  if (key.field === '_id') return hit.document._id;
  if (key.field === '_doc') return hit.document._seq_no;
  const spec = hit.index.fields.get(key.field);
  if (!spec) throw new SearchError(400, 'query_shard_exception', `No mapping found for [${key.field}] in order to sort on`);
  if (spec.type === 'text' || spec.type === 'object')
    throw illegalArgument(
      `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${key.field}] in order to load field data by uninverting the inverted index.`,
    );
  const values = docValues(hit.document._source, spec).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!values.length) return null;
  return key.descending ? values[values.length - 1] : values[0];
}

function compareHits(keys: SortKey[]) {
  return (a: Hit, b: Hit): number => {
    for (let i = 0; i < keys.length; i++) {
      const x = a.sortValues?.[i] ?? null;
      const y = b.sortValues?.[i] ?? null;
      if (x === y) continue;
      // Documents without the field come last in either order.
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * (keys[i].descending ? -1 : 1);
    }
    return a.document._id < b.document._id ? -1 : a.document._id > b.document._id ? 1 : 0;
  };
}

/** search_after: the sort values of the last hit of the previous page; it needs a sort of as many keys, and no from. */
function parseSearchAfter(raw: unknown, sort: SortKey[] | undefined, from: number): (Comparable | null)[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw malformed('[search_after] must be an array');
  if (!sort) throw illegalArgument('Sort must contain at least one field.');
  if (raw.length !== sort.length) throw illegalArgument(`search_after has ${raw.length} value(s) but sort has ${sort.length}.`);
  if (from > 0) throw illegalArgument('[from] parameter must be set to 0 when [search_after] is used.');
  return raw as (Comparable | null)[];
}

/** Whether a hit sorts strictly after the given values (ties on every key are not after, as OpenSearch pages). */
function isAfter(values: (Comparable | null)[], after: (Comparable | null)[], keys: SortKey[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const x = values[i] ?? null;
    const y = after[i] ?? null;
    if (x === y) continue;
    if (x === null) return true;
    if (y === null) return false;
    return x > y !== keys[i].descending;
  }
  return false;
}

/** The default order (best score first, then _id), compared directly: most searches sort by it, over every match. */
function byScoreThenId(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.document._id < b.document._id ? -1 : a.document._id > b.document._id ? 1 : 0;
}

function everyHit(indices: SearchIndex[], query: unknown): { hits: Hit[]; matched: number } {
  const hits: Hit[] = [];
  for (const index of indices) {
    const context = new QueryContext(index);
    for (const [id, score] of evaluate(query ?? { match_all: {} }, context)) {
      const document = index.docs.get(id);
      if (document) hits.push({ index, document, score, context });
    }
  }
  return { hits, matched: hits.length };
}

/** The best `count` hits in the default order, best first, and how many matched: a bounded list, kept sorted as matches come. */
function bestHits(indices: SearchIndex[], query: unknown, count: number): { hits: Hit[]; matched: number } {
  const best: Hit[] = [];
  let matched = 0;
  for (const index of indices) {
    const context = new QueryContext(index);
    for (const [id, score] of evaluate(query ?? { match_all: {} }, context)) {
      const document = index.docs.get(id);
      if (!document) continue;
      matched++;
      if (best.length >= count && (count === 0 || byScoreThenId({ score, document } as Hit, best[best.length - 1]) >= 0)) continue;
      const hit = { index, document, score, context };
      let at = best.length;
      while (at > 0 && byScoreThenId(hit, best[at - 1]) < 0) at--;
      best.splice(at, 0, hit);
      if (best.length > count) best.pop();
    }
  }
  return { hits: best, matched };
}

export function search(indices: SearchIndex[], rawBody: unknown, params: URLSearchParams): Record<string, unknown> {
  const started = Date.now();
  const body = objectAt(rawBody ?? {}, 'search request');
  onlyKeys(
    body,
    ['query', 'size', 'from', 'sort', 'search_after', 'highlight', '_source', 'track_total_hits', 'timeout'],
    'the search request',
  );
  const size = integerOf(params.get('size') ?? body.size, 'size', 10);
  const from = integerOf(params.get('from') ?? body.from, 'from', 0);
  if (from + size > MAX_RESULT_WINDOW)
    throw illegalArgument(
      `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}].`,
    );
  const sort = parseSort(body.sort);
  const after = parseSearchAfter(body.search_after, sort, from);
  const highlight = body.highlight === undefined ? undefined : parseHighlight(body.highlight);
  const sourceFilter = parseSourceFilter(body._source);
  const trackRaw = params.get('track_total_hits') ?? body.track_total_hits ?? MAX_RESULT_WINDOW;
  const track =
    trackRaw === true || trackRaw === 'true'
      ? Infinity
      : trackRaw === false || trackRaw === 'false'
        ? 0
        : integerOf(trackRaw, 'track_total_hits', 0);

  const keys = sort ?? [
    { field: '_score', descending: true },
    { field: '_id', descending: false },
  ];
  // In the default order only the page's hits are kept (as a search engine keeps a top-k), not every match sorted.
  const { hits, matched } = sort ? everyHit(indices, body.query) : bestHits(indices, body.query, from + size);
  if (sort) {
    for (const hit of hits) hit.sortValues = keys.map((key) => sortValue(hit, key));
    hits.sort(compareHits(keys));
  }
  const pageable = after ? hits.filter((hit) => isAfter(hit.sortValues ?? [], after, keys)) : hits;
  const firstPage = sort ? pageable.slice(from, from + size) : hits.slice(from);
  const scored = !sort || sort.some((key) => key.field === '_score');
  const maxScore = !scored || !hits.length ? null : sort ? Math.max(...hits.map((hit) => hit.score)) : hits[0].score;

  const page = firstPage.map((hit) => {
    const source = filterSource(hit.document._source, sourceFilter);
    const marks = highlight && highlightHit(hit.index, hit.document._source, highlight, hit.context.highlights);
    return {
      _index: hit.index.name,
      _id: hit.document._id,
      _score: scored ? hit.score : null,
      ...(source === undefined ? {} : { _source: source }),
      ...(marks ? { highlight: marks } : {}),
      ...(sort ? { sort: hit.sortValues } : {}),
    };
  });
  const total = track === 0 ? {} : { total: { value: Math.min(matched, track), relation: matched > track ? 'gte' : 'eq' } };
  return {
    took: Date.now() - started,
    timed_out: false,
    _shards: { ...SHARDS, total: indices.length, successful: indices.length },
    hits: { ...total, max_score: maxScore, hits: page },
  };
}

/** The body of _count and _delete_by_query: a query and nothing else. */
function queryOnly(rawBody: unknown, what: string, required: boolean): unknown {
  const body = objectAt(rawBody ?? {}, `${what} request`);
  onlyKeys(body, ['query'], `the ${what} request`);
  if (required && body.query === undefined)
    throw new SearchError(400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
  return body.query;
}

export function count(indices: SearchIndex[], rawBody: unknown): Record<string, unknown> {
  const { hits } = everyHit(indices, queryOnly(rawBody, '_count', false));
  return { count: hits.length, _shards: { ...SHARDS, total: indices.length, successful: indices.length } };
}

/** Deletes what the query matches; answers the response and the indices it changed (to be saved). */
export function deleteByQuery(indices: SearchIndex[], rawBody: unknown): { response: Record<string, unknown>; changed: SearchIndex[] } {
  const started = Date.now();
  const { hits } = everyHit(indices, queryOnly(rawBody, '_delete_by_query', true));
  for (const hit of hits) hit.index.remove(hit.document._id);
  const changed = indices.filter((index) => hits.some((hit) => hit.index === index));
  return {
    changed,
    response: {
      took: Date.now() - started,
      timed_out: false,
      total: hits.length,
      deleted: hits.length,
      batches: hits.length ? 1 : 0,
      version_conflicts: 0,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
      failures: [],
    },
  };
}
