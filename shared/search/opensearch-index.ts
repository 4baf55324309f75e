import type { Client } from '@opensearch-project/opensearch';
import { HIGHLIGHT_END, HIGHLIGHT_START, offsetsOf } from './highlights';
import type { Passage } from './passages';
import type { PassageHit, PassageQuery, SearchIndex } from './search-index';

/**
 * The passages' index on OpenSearch (Amazon OpenSearch Serverless in AWS, the local stand-in
 * of its REST API under `npm start`), through the official client. Reads and writes go to an
 * alias; the index behind it carries the mapping's version, so a new mapping is built beside
 * the old one and the alias swapped when it is complete (docs/search.md).
 */

/** Bumped with every change of PASSAGE_MAPPING: a new index is built, then the alias moves to it. */
export const MAPPING_VERSION = 1;
export const PASSAGES_ALIAS = 'passages';
export const passagesIndexName = (version = MAPPING_VERSION) => `${PASSAGES_ALIAS}-v${version}`;

const keyword = { type: 'keyword' } as const;
/** Text analyzed as English: lower case, stop words out, stems, so "approve" finds "approved". */
const englishText = { type: 'text', analyzer: 'english' } as const;

export const PASSAGE_MAPPING = {
  dynamic: 'strict',
  properties: {
    id: keyword,
    org_id: keyword,
    recording_id: keyword,
    recorded_by: keyword,
    created_at: { type: 'date' },
    language: keyword,
    title: { type: 'text', analyzer: 'english', fields: { raw: keyword } },
    field: keyword,
    text: englishText,
    start_time: { type: 'float' },
    end_time: { type: 'float' },
    speaker: keyword,
    summary_id: keyword,
    action_item_id: keyword,
    generation: { type: 'long' },
  },
} as const;

type Json = Record<string, unknown>;

interface SearchHitBody {
  _id: string;
  _score: number | null;
  _source: Passage;
  highlight?: { text?: string[] };
}

export class OpenSearchIndex implements SearchIndex {
  readonly semantic = false;
  private ready: Promise<void> | undefined;

  constructor(private readonly client: Client) {}

  /** Creates the current version's index and points the alias at it, once, when no alias exists yet. */
  ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      const exists = await this.client.indices.exists({ index: PASSAGES_ALIAS });
      if (exists.statusCode === 200) return;
      await this.client.indices.create({ index: passagesIndexName(), body: { mappings: PASSAGE_MAPPING } });
      await this.client.indices.putAlias({ index: passagesIndexName(), name: PASSAGES_ALIAS });
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async replaceRecording(orgId: string, recordingId: string, passages: Passage[], generation: number): Promise<void> {
    await this.ensureIndex();
    if (passages.length) {
      const body = passages.flatMap((passage) => [{ index: { _index: PASSAGES_ALIAS, _id: passage.id } }, passage]);
      const response = await this.client.bulk({ body });
      const result = response.body as { errors: boolean; items: { index?: { status: number; error?: Json } }[] };
      if (result.errors) {
        const failed = result.items.find((item) => item.index?.error);
        throw new Error(`Indexing ${recordingId} failed: ${JSON.stringify(failed?.index?.error ?? {})}`);
      }
    }
    // The older generation goes only once the new one is written: a search never finds the recording missing.
    await this.deleteWhere([{ term: { org_id: orgId } }, { term: { recording_id: recordingId } }], [{ term: { generation } }]);
  }

  async removeRecording(orgId: string, recordingId: string): Promise<void> {
    await this.ensureIndex();
    await this.deleteWhere([{ term: { org_id: orgId } }, { term: { recording_id: recordingId } }]);
  }

  async search(query: PassageQuery): Promise<PassageHit[]> {
    await this.ensureIndex();
    const response = await this.client.search({ index: PASSAGES_ALIAS, body: searchBody(query) });
    const hits = (response.body as { hits: { hits: SearchHitBody[] } }).hits.hits;
    return hits.map((hit) => {
      const highlighted = hit.highlight?.text?.[0];
      const { highlights } = highlighted ? offsetsOf(highlighted) : { highlights: [] };
      return { passage: hit._source, score: hit._score ?? 0, highlights };
    });
  }

  private async deleteWhere(filter: Json[], mustNot: Json[] = []): Promise<void> {
    await this.client.deleteByQuery({ index: PASSAGES_ALIAS, body: { query: { bool: { filter, must_not: mustNot } } } });
  }
}

/**
 * The query: the organization (and a personal key's owner) as filters the service sets, the
 * request's filters, then every word and every quoted phrase required in one passage's text.
 */
export function searchBody(query: PassageQuery): Json {
  const filter: Json[] = [{ term: { org_id: query.orgId } }, { terms: { field: [...query.fields] } }];
  if (query.recordedBy) filter.push({ term: { recorded_by: query.recordedBy } });
  if (query.language) filter.push({ term: { language: query.language } });
  if (query.from || query.to)
    filter.push({ range: { created_at: { ...(query.from && { gte: query.from }), ...(query.to && { lte: query.to }) } } });
  const must: Json[] = [];
  if (query.words.trim()) must.push({ match: { text: { query: query.words, operator: query.anyWord ? 'or' : 'and' } } });
  for (const phrase of query.phrases) must.push({ match_phrase: { text: phrase } });
  return {
    size: query.size,
    query: { bool: { filter, must } },
    highlight: { pre_tags: [HIGHLIGHT_START], post_tags: [HIGHLIGHT_END], fields: { text: { number_of_fragments: 0 } } },
  };
}
