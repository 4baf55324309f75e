import type { Client } from '@opensearch-project/opensearch';
import { ConflictError } from '../core/errors';
import { embedAll, type Embedder } from './embedder';
import { offsetsOf } from './highlights';
import { holdsVectors, MAPPING_VERSION, PASSAGES_ALIAS, passageIndexBody, passagesIndexName, type VectorSettings } from './passage-mapping';
import { fuseRanks, keywordBody, knnBody, semanticText, showBody } from './passage-queries';
import type { Passage } from './passages';
import type { PassageHit, PassageQuery, SearchIndex } from './search-index';

/**
 * The passages' index on OpenSearch (an Amazon OpenSearch Serverless vector search collection
 * in AWS, the local stand-in of its REST API under `npm start`), through the official client.
 * Such a collection generates document ids and has no _delete_by_query: a recording's passages
 * carry a generation, and the older generations are found by a search and deleted by id.
 * Reads go to the alias; writes go to the index behind it and, while `search rebuild` builds
 * the next mapping's index, to that one too (passage-mapping.ts).
 */

type Json = Record<string, unknown>;

interface SearchHitBody {
  _id: string;
  _index: string;
  _score: number | null;
  _source: Passage;
  highlight?: { text?: string[] };
  sort?: (string | number)[];
}

/** Documents per bulk request: a passage with its vector is a few kilobytes, and a collection takes bulk bodies of up to 10 MiB. */
const BULK_DOCUMENTS = 200;
/** Ids per page when finding a recording's older passages. */
const ID_PAGE = 1000;

export class OpenSearchIndex implements SearchIndex {
  private ready: Promise<void> | undefined;
  private vectorsReady = false;

  constructor(
    private readonly client: Client,
    private readonly embedder?: Embedder,
    /** The mapping's version: the current one, but for a test that builds an older index. */
    private readonly mappingVersion = MAPPING_VERSION,
  ) {}

  get semantic(): boolean {
    return this.embedder !== undefined;
  }

  private get vectors(): VectorSettings | undefined {
    return this.embedder && { dimensions: this.embedder.dimensions };
  }

  /** The index this deployment's mapping wants the alias on. */
  get currentIndex(): string {
    return passagesIndexName(this.vectors, this.mappingVersion);
  }

  /** Creates the wanted index and points the alias at it, once, when no alias exists yet. */
  ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      if ((await this.aliasTargets()).length) return;
      await this.createIndex();
      await this.client.indices.putAlias({ index: this.currentIndex, name: PASSAGES_ALIAS });
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** The indexes the alias points at (one, except never). */
  async aliasTargets(): Promise<string[]> {
    const response = await this.client.indices.getAlias({ name: PASSAGES_ALIAS }, { ignore: [404] });
    return response.statusCode === 200 ? Object.keys(response.body) : [];
  }

  /** Creates the wanted index unless it exists. */
  async createIndex(): Promise<void> {
    const exists = await this.client.indices.exists({ index: this.currentIndex });
    if (exists.statusCode === 200) return;
    await this.client.indices.create({ index: this.currentIndex, body: passageIndexBody(this.vectors) }, { ignore: [400] });
  }

  /** Points the alias at the wanted index instead of these, in one step, then deletes them (the end of `search rebuild`). */
  async moveAlias(from: string[]): Promise<void> {
    const actions = [
      ...from.map((index) => ({ remove: { index, alias: PASSAGES_ALIAS } })),
      { add: { index: this.currentIndex, alias: PASSAGES_ALIAS } },
    ];
    await this.client.indices.updateAliases({ body: { actions } });
    for (const index of from) await this.client.indices.delete({ index });
  }

  /** The alias's index, and the wanted one when it exists beside it (a rebuild under way). */
  private async writeTargets(): Promise<string[]> {
    await this.ensureIndex();
    const targets = await this.aliasTargets();
    if (!targets.includes(this.currentIndex) && (await this.client.indices.exists({ index: this.currentIndex })).statusCode === 200)
      targets.push(this.currentIndex);
    return targets;
  }

  /**
   * Writes the passages as one generation, then removes the older generations; and when a newer
   * one is there already (an indexer that read the table later finished first), its own, so the
   * newest state wins whatever order two indexers finish in.
   */
  async replaceRecording(orgId: string, recordingId: string, passages: Passage[], generation: number): Promise<void> {
    const targets = await this.writeTargets();
    const embedder = this.embedder;
    const vectors =
      embedder && passages.length && targets.some(holdsVectors)
        ? await embedAll(
            embedder,
            passages.map((passage) => passage.text),
          )
        : undefined;
    const ofRecording = [{ term: { org_id: orgId } }, { term: { recording_id: recordingId } }];
    for (const target of targets) {
      const documents = passages.map((passage, at) => (vectors && holdsVectors(target) ? { ...passage, embedding: vectors[at] } : passage));
      for (let start = 0; start < documents.length; start += BULK_DOCUMENTS)
        await this.bulk(
          recordingId,
          documents.slice(start, start + BULK_DOCUMENTS).flatMap((document) => [{ index: { _index: target } }, document]),
        );
      await this.deleteWhere(target, [...ofRecording, { range: { generation: { lt: generation } } }]);
      if ((await this.idsWhere(target, [...ofRecording, { range: { generation: { gt: generation } } }], 1)).length)
        await this.deleteWhere(target, [...ofRecording, { term: { generation } }]);
    }
  }

  async removeRecording(orgId: string, recordingId: string): Promise<void> {
    for (const target of await this.writeTargets())
      await this.deleteWhere(target, [{ term: { org_id: orgId } }, { term: { recording_id: recordingId } }]);
  }

  async search(query: PassageQuery): Promise<PassageHit[]> {
    await this.ensureIndex();
    const embedder = this.embedder;
    const withVectors = embedder !== undefined && query.mode !== 'keyword' && (await this.aliasHoldsVectors());
    if (query.mode === 'semantic' && !withVectors) throw semanticIndexMissing();
    if (!withVectors) return dedupe(await this.hits(keywordBody(query)));
    const vector = await embedder.embed(semanticText(query));
    if (query.mode === 'semantic') return dedupe(await this.hits(knnBody(query, vector)));
    const [keyword, semantic] = await Promise.all([this.hits(keywordBody(query)), this.hits(knnBody(query, vector))]);
    const byId = new Map<string, PassageHit>();
    for (const hit of [...semantic, ...keyword]) byId.set(hit.passage.id, hit); // the keyword hit, with its highlights, wins
    const fused = fuseRanks([keyword, semantic].map((hits) => hits.map((hit) => hit.passage.id)));
    return fused.slice(0, query.size).map(({ key, score }) => ({ ...(byId.get(key) as PassageHit), score }));
  }

  /** Whether the alias names an index with vectors: once it does, it always will (a rebuild only adds them), so that is kept. */
  private async aliasHoldsVectors(): Promise<boolean> {
    this.vectorsReady ||= (await this.aliasTargets()).every(holdsVectors);
    return this.vectorsReady;
  }

  async show(query: PassageQuery, refs: readonly string[]): Promise<PassageHit[]> {
    return refs.length ? this.hits(showBody(query, refs)) : [];
  }

  private async hits(body: Json): Promise<PassageHit[]> {
    const response = await this.client.search({ index: PASSAGES_ALIAS, body });
    return (response.body as { hits: { hits: SearchHitBody[] } }).hits.hits.map((hit) => {
      const highlighted = hit.highlight?.text?.[0];
      const { highlights } = highlighted ? offsetsOf(highlighted) : { highlights: [] };
      // A light search's passages come without their text.
      return { passage: { ...hit._source, text: hit._source.text ?? '' }, score: hit._score ?? 0, highlights, ref: hit._id };
    });
  }

  private async bulk(recordingId: string, body: object[]): Promise<void> {
    const response = await this.client.bulk({ body });
    const result = response.body as { errors: boolean; items: Record<string, { status: number; error?: Json }>[] };
    if (!result.errors) return;
    const failed = result.items.map((item) => Object.values(item)[0]).find((item) => item?.error && item.status !== 404);
    if (failed) throw new Error(`Indexing ${recordingId} failed: ${JSON.stringify(failed.error)}`);
  }

  /** The ids of the documents matching the filters, in pages ordered by passage and generation. */
  private async idsWhere(index: string, filter: Json[], limit = Infinity): Promise<string[]> {
    const ids: string[] = [];
    let after: (string | number)[] | undefined;
    while (ids.length < limit) {
      const size = Math.min(ID_PAGE, limit - ids.length);
      const body: Json = {
        size,
        _source: false,
        query: { bool: { filter } },
        sort: [{ id: { order: 'asc' as const } }, { generation: { order: 'asc' as const } }],
        ...(after && { search_after: after }),
      };
      const page = ((await this.client.search({ index, body })).body as { hits: { hits: SearchHitBody[] } }).hits.hits;
      ids.push(...page.map((hit) => hit._id));
      if (page.length < size) break;
      after = page[page.length - 1].sort;
    }
    return ids;
  }

  private async deleteWhere(index: string, filter: Json[]): Promise<void> {
    const ids = await this.idsWhere(index, filter);
    for (let start = 0; start < ids.length; start += ID_PAGE)
      await this.bulk(
        'deletion',
        ids.slice(start, start + ID_PAGE).map((id) => ({ delete: { _index: index, _id: id } })),
      );
  }
}

/** A passage may be found twice for a moment while a recording is reindexed (two generations): the best one counts. */
function dedupe(hits: PassageHit[]): PassageHit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => !seen.has(hit.passage.id) && seen.add(hit.passage.id));
}

const semanticIndexMissing = () =>
  new ConflictError(
    'SEMANTIC_SEARCH_UNAVAILABLE',
    'The search index holds no vectors yet: an operator runs `npx voice-org search rebuild` once after enabling embeddings. Use mode=keyword or mode=hybrid until then.',
  );
