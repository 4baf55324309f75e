import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { Client } from '@opensearch-project/opensearch';
import { mockClient } from 'aws-sdk-client-mock';
import { OpenSearchIndex } from '../../../shared/search/opensearch-index';
import type { Passage } from '../../../shared/search/passages';
import { passageFixture } from '../../support/passage-fixture';
import type { PassageQuery } from '../../../shared/search/search-index';
import { TITAN_EMBED_TEXT_V2, TitanEmbedder } from '../../../shared/search/titan-embedder';

/**
 * Semantic and hybrid search as they run in AWS: Titan Text Embeddings V2 (aws-sdk-client-mock,
 * its recorded response shape) and an OpenSearch Serverless vector collection (a server that
 * answers the collection's recorded response shapes and keeps the requests it got).
 */
const bedrock = mockClient(BedrockRuntimeClient);
const VECTOR_INDEX = 'passages-v1-knn512';

/** InvokeModel's answer for Titan Text Embeddings V2 (recorded shape): the vector, by type too, and the tokens read. */
function titanOutput(vector: number[]) {
  return {
    $metadata: { httpStatusCode: 200, requestId: 'b7d4e6f0-1c2a-4e5b-9f3d-EXAMPLE22222' },
    contentType: 'application/json',
    // The SDK hands the body over as bytes (a Uint8Array with helpers); the embedder reads the bytes.
    body: new TextEncoder().encode(
      JSON.stringify({ embedding: vector, embeddingsByType: { float: vector }, inputTextTokenCount: 7 }),
    ) as never,
  };
}
const unit = (at: number) => Array.from({ length: 512 }, (_, i) => (i === at ? 1 : 0));

const passage = (id: string, text: string): Passage => passageFixture({ id, recording_id: id.split(':')[0], text, generation: 5 });

/** A search answer in the collection's shape (its shard counts are zeros). */
const hitsOf = (index: string, hits: { passage: Passage; score: number; highlight?: string }[]) => ({
  took: 12,
  timed_out: false,
  _shards: { total: 0, successful: 0, skipped: 0, failed: 0 },
  hits: {
    total: { value: hits.length, relation: 'eq' },
    max_score: hits[0]?.score ?? null,
    hits: hits.map(({ passage, score, highlight }, at) => ({
      _index: index,
      _id: `1%3A0%3AbnJ4wpMBjEHtn8hbqM-${at}`,
      _score: score,
      _source: passage,
      ...(highlight && { highlight: { text: [highlight] } }),
    })),
  },
});

type Request = { method: string; path: string; body: string };
let requests: Request[];
let answer: (request: Request) => { status: number; body?: unknown };
let server: Server;
let client: Client;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = { method: request.method ?? 'GET', path: request.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      const text = body === undefined ? '' : JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client({ node: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  // The client keeps its connections alive: closed first, so that the server closes at once.
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = [];
  bedrock.reset();
});

/** The collection as it is once the alias names the given index. */
function collectionWith(
  aliasTarget: string,
  searches: Record<'keyword' | 'knn', unknown> = { keyword: hitsOf(aliasTarget, []), knn: hitsOf(aliasTarget, []) },
) {
  answer = ({ method, path, body }) => {
    if (method === 'GET' && path.startsWith('/_alias/passages'))
      return { status: 200, body: { [aliasTarget]: { aliases: { passages: {} } } } };
    if (method === 'HEAD') return { status: path.startsWith(`/${aliasTarget}`) ? 200 : 404 };
    if (path.startsWith('/_bulk')) {
      const lines = body.trim().split('\n');
      const items = lines
        .filter((_, at) => at % 2 === 0)
        .map((_, at) => ({ index: { _index: aliasTarget, _id: `1%3A0%3Aid${at}`, result: 'created', status: 201 } }));
      return { status: 200, body: { took: 30, errors: false, items } };
    }
    if (path.includes('_search')) return { status: 200, body: JSON.parse(body).query.knn ? searches.knn : searches.keyword };
    return { status: 404, body: { error: `unexpected ${method} ${path}`, status: 404 } };
  };
}

const query = (mode: PassageQuery['mode']): PassageQuery => ({
  orgId: 'org_1',
  words: 'budget approval',
  phrases: [],
  mode,
  fields: ['transcript'],
  recordedBy: 'usr_1',
  size: 10,
});

describe('TitanEmbedder', () => {
  it('asks Titan Text Embeddings V2 for a normalized 512-dimension vector of the text', async () => {
    bedrock.on(InvokeModelCommand).resolves(titanOutput(unit(3)));
    const vector = await new TitanEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' })).embed('Is the budget approved?');
    expect(vector).toEqual(unit(3));
    const input = bedrock.commandCalls(InvokeModelCommand)[0].args[0].input;
    expect(input.modelId).toBe(TITAN_EMBED_TEXT_V2);
    expect(JSON.parse(input.body as string)).toEqual({ inputText: 'Is the budget approved?', dimensions: 512, normalize: true });
  });

  it('refuses an answer without a vector of the asked size', async () => {
    bedrock.on(InvokeModelCommand).resolves(titanOutput([0.5, 0.5]));
    await expect(new TitanEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' })).embed('x')).rejects.toThrow('512-dimension');
  });
});

describe('OpenSearchIndex with embeddings, on a vector collection', () => {
  const embedder = () => new TitanEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' }));

  it('creates the vector index (Faiss HNSW, inner product) when no alias exists, and names it after its vectors', async () => {
    let created = false;
    answer = ({ method, path }) => {
      if (method === 'GET' && path.startsWith('/_alias/passages'))
        return { status: 404, body: { error: 'alias [passages] missing', status: 404 } };
      if (method === 'HEAD') return { status: created ? 200 : 404 };
      if (method === 'PUT' && path.startsWith(`/${VECTOR_INDEX}/_alias`)) return { status: 200, body: { acknowledged: true } };
      if (method === 'PUT')
        return ((created = true), { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: VECTOR_INDEX } });
      return { status: 404 };
    };
    await new OpenSearchIndex(client, embedder()).ensureIndex();
    const create = requests.find(
      (request) => request.method === 'PUT' && (request.path.startsWith(`/${VECTOR_INDEX}?`) || request.path === `/${VECTOR_INDEX}`),
    );
    const body = JSON.parse(create?.body ?? '{}');
    expect(body.settings).toEqual({ 'index.knn': true });
    expect(body.mappings.properties.embedding).toEqual({
      type: 'knn_vector',
      dimension: 512,
      method: { name: 'hnsw', engine: 'faiss', space_type: 'innerproduct' },
    });
  });

  it('writes each passage with its vector and lets the collection choose the document id', async () => {
    collectionWith(VECTOR_INDEX);
    bedrock.on(InvokeModelCommand).resolves(titanOutput(unit(1)));
    await new OpenSearchIndex(client, embedder()).replaceRecording(
      'org_1',
      'rec_1',
      [passage('rec_1:transcript:0', 'The budget is approved.')],
      5,
    );
    const bulk = requests.find((request) => request.path.startsWith('/_bulk'));
    const [action, document] = (bulk?.body ?? '')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(action).toEqual({ index: { _index: VECTOR_INDEX } });
    expect(document.embedding).toEqual(unit(1));
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(1);
  });

  it('fuses the keyword and the semantic lists by rank, both filtered by the organization and the recorder', async () => {
    const a = passage('rec_a:transcript:0', 'budget approval was given');
    const b = passage('rec_b:transcript:0', 'the spending plan got a yes');
    const c = passage('rec_c:transcript:0', 'budget meeting moved');
    collectionWith(VECTOR_INDEX, {
      keyword: hitsOf(VECTOR_INDEX, [
        { passage: a, score: 7.1, highlight: '\u0001budget\u0002 \u0001approval\u0002 was given' },
        { passage: c, score: 2.2 },
      ]),
      knn: hitsOf(VECTOR_INDEX, [
        { passage: b, score: 0.91 },
        { passage: a, score: 0.88 },
      ]),
    });
    bedrock.on(InvokeModelCommand).resolves(titanOutput(unit(2)));
    const hits = await new OpenSearchIndex(client, embedder()).search(query('hybrid'));
    expect(hits.map((hit) => hit.passage.id)).toEqual([a.id, b.id, c.id]);
    expect(hits[0].highlights).toEqual([
      [0, 6],
      [7, 15],
    ]);
    const searches = requests.filter((request) => request.path.includes('_search')).map((request) => JSON.parse(request.body));
    const knn = searches.find((body) => body.query.knn).query.knn.embedding;
    expect(knn.vector).toEqual(unit(2));
    expect(knn.filter.bool.filter).toEqual(expect.arrayContaining([{ term: { org_id: 'org_1' } }, { term: { recorded_by: 'usr_1' } }]));
    for (const body of searches) expect(body._source).toEqual({ excludes: ['embedding'] });
  });

  it('answers semantic search with the nearest passages only', async () => {
    const b = passage('rec_b:transcript:0', 'the spending plan got a yes');
    collectionWith(VECTOR_INDEX, { keyword: hitsOf(VECTOR_INDEX, []), knn: hitsOf(VECTOR_INDEX, [{ passage: b, score: 0.91 }]) });
    bedrock.on(InvokeModelCommand).resolves(titanOutput(unit(2)));
    const hits = await new OpenSearchIndex(client, embedder()).search(query('semantic'));
    expect(hits.map((hit) => [hit.passage.id, hit.score])).toEqual([[b.id, 0.91]]);
    expect(requests.filter((request) => request.path.includes('_search'))).toHaveLength(1);
  });

  it('answers 409 to semantic search, and keywords to hybrid, while the alias still names an index without vectors', async () => {
    collectionWith('passages-v1', { keyword: hitsOf('passages-v1', []), knn: hitsOf('passages-v1', []) });
    const index = new OpenSearchIndex(client, embedder());
    await expect(index.search(query('semantic'))).rejects.toMatchObject({ statusCode: 409, code: 'SEMANTIC_SEARCH_UNAVAILABLE' });
    await index.search(query('hybrid'));
    expect(
      requests.filter((request) => request.path.includes('_search')).map((request) => Object.keys(JSON.parse(request.body).query)),
    ).toEqual([['bool']]);
    expect(bedrock.commandCalls(InvokeModelCommand)).toHaveLength(0);
  });
});
