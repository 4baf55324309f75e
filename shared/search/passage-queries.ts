import { SEARCH_FIELDS } from '../core/search-fields';
import { HIGHLIGHT_END, HIGHLIGHT_START } from './highlights';
import type { PassageQuery } from './search-index';

/* The request bodies the passages' index is asked, and the fusion of keyword and semantic ranks. */

type Json = Record<string, unknown>;

/** Vectors stay in the index: an answer never needs them, and they are most of a passage's bytes. */
const WITHOUT_VECTORS = { excludes: ['embedding'] };
/** A light search ranks: the passage and its recording, nothing else; the rest is fetched (and highlighted) for the passages a page shows. */
const RANKING_ONLY = { includes: ['id', 'recording_id'] };
const HIGHLIGHT = { pre_tags: [HIGHLIGHT_START], post_tags: [HIGHLIGHT_END], fields: { text: { number_of_fragments: 0 } } };

/** The organization (and a personal key's owner) as filters the service sets, then the request's filters. */
export function filtersOf(query: PassageQuery): Json[] {
  const filter: Json[] = [{ term: { org_id: query.orgId } }];
  // Every field asked (the default) needs no filter: one clause fewer for the engine to intersect.
  if (!SEARCH_FIELDS.every((field) => query.fields.includes(field))) filter.push({ terms: { field: [...query.fields] } });
  if (query.recordedBy) filter.push({ term: { recorded_by: query.recordedBy } });
  if (query.language) filter.push({ term: { language: query.language } });
  if (query.from || query.to)
    filter.push({ range: { created_at: { ...(query.from && { gte: query.from }), ...(query.to && { lte: query.to }) } } });
  return filter;
}

/** Keyword search: every word (or any, with anyWord) and every quoted phrase in one passage's text, highlighted. */
export function keywordBody(query: PassageQuery): Json {
  return {
    size: query.size,
    _source: query.light ? RANKING_ONLY : WITHOUT_VECTORS,
    query: { bool: { filter: filtersOf(query), must: textClauses(query) } },
    ...(!query.light && { highlight: HIGHLIGHT }),
  };
}

function textClauses(query: PassageQuery): Json[] {
  const clauses: Json[] = [];
  if (query.words.trim()) clauses.push({ match: { text: { query: query.words, operator: query.anyWord ? 'or' : 'and' } } });
  for (const phrase of query.phrases) clauses.push({ match_phrase: { text: phrase } });
  return clauses;
}

/**
 * The passages a page shows, by their ids, with their text highlighted where the query's words
 * are (should: a passage found by meaning alone comes too, unhighlighted). The service's filters
 * again, so an id can never reach past them.
 */
export function showBody(query: PassageQuery, refs: readonly string[]): Json {
  return {
    size: refs.length,
    _source: WITHOUT_VECTORS,
    query: { bool: { filter: [...filtersOf(query), { ids: { values: [...refs] } }], should: textClauses(query) } },
    highlight: HIGHLIGHT,
  };
}

/** Semantic search: the passages nearest the query's vector, the same filters applied while searching (not after). */
export function knnBody(query: PassageQuery, vector: number[]): Json {
  return {
    size: query.size,
    _source: query.light ? RANKING_ONLY : WITHOUT_VECTORS,
    query: { knn: { embedding: { vector, k: query.size, filter: { bool: { filter: filtersOf(query) } } } } },
  };
}

/** The text a semantic search embeds: the words and the phrases, as the caller wrote them. */
export function semanticText(query: PassageQuery): string {
  return [query.words, ...query.phrases].filter((part) => part.trim()).join(' ');
}

/** Reciprocal rank fusion's constant: ranks past the first few count little, whichever list they come from. */
const RRF_K = 60;

/**
 * Hybrid ranking: reciprocal rank fusion of the keyword and the semantic lists, so that neither
 * score scale (BM25's unbounded, the cosine's 0 to 1) dominates. Answers keys best first with their fused score.
 */
export function fuseRanks(lists: readonly (readonly string[])[]): { key: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((key, rank) => scores.set(key, (scores.get(key) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores].map(([key, score]) => ({ key, score })).sort((a, b) => b.score - a.score);
}
