import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, errors } from '@opensearch-project/opensearch';
import type { Emulator } from '../../infra/local/emulators';
import { startSearchEmulator } from '../../infra/local/search-emulator';

/**
 * The local OpenSearch stand-in driven by the real @opensearch-project/opensearch client: indices
 * and aliases, _bulk, the query DSL subset (filters, analyzed text matches, phrases, bool),
 * highlights, paging and sorting, _delete_by_query, the 400 for what it does not do, and its
 * data surviving a restart on the same directory.
 */
const MAPPINGS = {
  properties: {
    org_id: { type: 'keyword' },
    recording_id: { type: 'keyword' },
    field: { type: 'keyword' },
    speaker: { type: 'keyword' },
    created_at: { type: 'date' },
    start_time: { type: 'float' },
    text: { type: 'text' },
  },
} as const;

const SEGMENTS = [
  {
    id: 's1',
    org_id: 'org-a',
    recording_id: 'rec-1',
    speaker: 'spk_0',
    created_at: '2024-03-01T10:00:00Z',
    start_time: 0.5,
    text: 'The budget was Approved by the board.',
  },
  {
    id: 's2',
    org_id: 'org-a',
    recording_id: 'rec-1',
    speaker: 'spk_1',
    created_at: '2024-03-01T10:00:00Z',
    start_time: 4.2,
    text: 'We need approval for the new hiring plan.',
  },
  {
    id: 's3',
    org_id: 'org-a',
    recording_id: 'rec-2',
    speaker: 'spk_0',
    created_at: '2024-03-05T09:30:00Z',
    start_time: 1,
    text: 'Board approved budget; hiring is on hold.',
  },
  {
    id: 's4',
    org_id: 'org-b',
    recording_id: 'rec-3',
    speaker: 'spk_0',
    created_at: '2024-04-10T08:00:00Z',
    start_time: 2,
    text: 'Nobody will approve this budget.',
  },
  {
    id: 's5',
    org_id: 'org-a',
    recording_id: 'rec-2',
    speaker: 'spk_2',
    created_at: '2024-03-05T09:30:00Z',
    start_time: 7.5,
    text: "The team's roadmap covers the launch.",
  },
];

let dataDir: string;
let emulator: Emulator;
let client: Client;
let indexCount = 0;

async function start(): Promise<void> {
  emulator = await startSearchEmulator({ host: '127.0.0.1', dataDir });
  client = new Client({ node: emulator.endpoint });
}

async function stop(): Promise<void> {
  await client.close();
  await emulator.stop();
}

/** A new index holding the segments, so that each test writes to its own. */
async function segmentsIndex(): Promise<string> {
  const index = `segments-${++indexCount}`;
  await client.indices.create({ index, body: { settings: { index: { number_of_shards: 1 } }, mappings: MAPPINGS } });
  const body = SEGMENTS.flatMap(({ id, ...segment }) => [{ index: { _index: index, _id: id } }, { field: 'transcript', ...segment }]);
  const { body: result } = await client.bulk({ body, refresh: 'true' });
  expect(result.errors).toBe(false);
  return index;
}

async function ids(index: string, query: unknown, extra: Record<string, unknown> = {}): Promise<string[]> {
  const { body } = await client.search({ index, body: { query, size: 100, ...extra } as never });
  return body.hits.hits.map((hit) => String(hit._id));
}

/** The error a request fails with (the test fails when it succeeds). */
async function failure(request: Promise<unknown>): Promise<InstanceType<typeof errors.ResponseError>> {
  const error = await request.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errors.ResponseError);
  return error as InstanceType<typeof errors.ResponseError>;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'search-emulator-'));
  await start();
});

afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('it answers the cluster info the client checks', async () => {
  const { body } = await client.info();
  expect(body.version).toMatchObject({ distribution: 'opensearch', number: '2.17.0' });
  expect(body.tagline).toContain('OpenSearch');
});

test('an index is created once, exists, and is deleted', async () => {
  const created = await client.indices.create({ index: 'lifecycle', body: { mappings: MAPPINGS } });
  expect(created.body).toMatchObject({ acknowledged: true, index: 'lifecycle' });
  expect((await client.indices.exists({ index: 'lifecycle' })).body).toBe(true);
  const again = await failure(client.indices.create({ index: 'lifecycle', body: { mappings: MAPPINGS } }));
  expect(again.statusCode).toBe(400);
  expect(again.body.error.type).toBe('resource_already_exists_exception');
  await client.indices.delete({ index: 'lifecycle' });
  expect((await client.indices.exists({ index: 'lifecycle' })).body).toBe(false);
  expect((await failure(client.indices.delete({ index: 'lifecycle' }))).statusCode).toBe(404);
});

test('an alias names its index, and a swap moves it at once or not at all', async () => {
  const first = await segmentsIndex();
  const second = await segmentsIndex();
  await client.bulk({ body: [{ delete: { _index: second, _id: 's1' } }] });
  await client.indices.putAlias({ index: first, name: 'segments-live' });
  expect((await client.indices.getAlias({ name: 'segments-live' })).body).toEqual({ [first]: { aliases: { 'segments-live': {} } } });
  expect((await client.indices.exists({ index: 'segments-live' })).body).toBe(true);
  expect(await ids('segments-live', { term: { _id: 's1' } })).toEqual(['s1']);

  // A failing action (removing an alias that is not there) leaves every action undone.
  const refused = await failure(
    client.indices.updateAliases({
      body: { actions: [{ remove: { index: first, alias: 'segments-live' } }, { remove: { index: second, alias: 'missing' } }] },
    }),
  );
  expect(refused.statusCode).toBe(404);
  expect(Object.keys((await client.indices.getAlias({ name: 'segments-live' })).body)).toEqual([first]);

  await client.indices.updateAliases({
    body: { actions: [{ remove: { index: first, alias: 'segments-live' } }, { add: { index: second, alias: 'segments-live' } }] },
  });
  expect(Object.keys((await client.indices.getAlias({ name: 'segments-live' })).body)).toEqual([second]);
  expect(await ids('segments-live', { term: { _id: 's1' } })).toEqual([]);
  expect((await failure(client.indices.getAlias({ name: 'nothing-here' }))).statusCode).toBe(404);
});

test('bulk creates, upserts by _id and deletes, through an alias too', async () => {
  const index = await segmentsIndex();
  await client.indices.putAlias({ index, name: `${index}-alias` });
  const { body } = await client.bulk({
    refresh: 'wait_for',
    body: [
      { index: { _index: `${index}-alias`, _id: 's1' } },
      { org_id: 'org-a', recording_id: 'rec-1', text: 'Rewritten words', start_time: 0.5 },
      { index: { _index: index, _id: 's9' } },
      { org_id: 'org-c', recording_id: 'rec-9', text: 'A new segment', start_time: 3 },
      { delete: { _index: index, _id: 's2' } },
      { delete: { _index: index, _id: 'never-there' } },
    ],
  });
  expect(body.errors).toBe(false);
  expect(body.items.map((item) => Object.entries(item)[0])).toEqual([
    ['index', expect.objectContaining({ _index: index, _id: 's1', status: 200, result: 'updated' })],
    ['index', expect.objectContaining({ _index: index, _id: 's9', status: 201, result: 'created' })],
    ['delete', expect.objectContaining({ _index: index, _id: 's2', status: 200, result: 'deleted' })],
    ['delete', expect.objectContaining({ _index: index, _id: 'never-there', status: 404, result: 'not_found' })],
  ]);
  expect((await ids(index, { match_all: {} })).sort()).toEqual(['s1', 's3', 's4', 's5', 's9']);
  expect(await ids(index, { match: { text: 'rewritten' } })).toEqual(['s1']);
  expect(await ids(index, { match: { text: 'budget' } })).not.toContain('s1');

  const bad = await client.bulk({
    body: [
      { index: { _index: index, _id: 'bad' } },
      { created_at: 'not a date' },
      { index: { _index: 'no-such-index', _id: 'x' } },
      { a: 1 },
    ],
  });
  expect(bad.body.errors).toBe(true);
  expect(bad.body.items.map((item) => Object.values(item)[0].status)).toEqual([400, 404]);
});

test('term, terms, range and exists filter exactly, dates compared as dates', async () => {
  const index = await segmentsIndex();
  expect(await ids(index, { bool: { filter: { term: { recording_id: 'rec-2' } } } })).toEqual(['s3', 's5']);
  expect(await ids(index, { term: { org_id: 'ORG-A' } })).toEqual([]);
  expect(await ids(index, { terms: { speaker: ['spk_1', 'spk_2'] } })).toEqual(['s2', 's5']);
  expect(await ids(index, { range: { start_time: { gte: 1, lt: 5 } } })).toEqual(['s2', 's3', 's4']);
  // 10:30 at +01:00 is 09:30Z: a string comparison would find nothing.
  expect(await ids(index, { range: { created_at: { gte: '2024-03-05T10:30:00+01:00', lte: '2024-03-05T10:30:00+01:00' } } })).toEqual([
    's3',
    's5',
  ]);
  expect(await ids(index, { range: { created_at: { gt: '2024-03-01T10:00:00Z', lt: '2024-04-01' } } })).toEqual(['s3', 's5']);
  await client.bulk({ body: [{ index: { _index: index, _id: 's6' } }, { org_id: 'org-a', text: 'No speaker here' }] });
  expect(await ids(index, { bool: { must_not: { exists: { field: 'speaker' } } } })).toEqual(['s6']);
  // Filters do not score.
  const { body } = await client.search({ index, body: { query: { bool: { filter: [{ term: { org_id: 'org-b' } }] } } } });
  expect(body.hits.hits[0]).toMatchObject({ _id: 's4', _score: 0 });
});

test('match finds every inflection of a word in any case, and ranks by BM25', async () => {
  const index = await segmentsIndex();
  const orgA = { term: { org_id: 'org-a' } };
  expect((await ids(index, { bool: { filter: orgA, must: { match: { text: 'approve' } } } })).sort()).toEqual(['s1', 's2', 's3']);
  expect((await ids(index, { match: { text: 'APPROVALS' } })).sort()).toEqual(['s1', 's2', 's3', 's4']);
  expect(await ids(index, { match: { text: 'the' } })).toEqual([]);
  expect(await ids(index, { match: { text: "team's" } })).toEqual(['s5']);
  expect((await ids(index, { match: { text: { query: 'approved budget', operator: 'and' } } })).sort()).toEqual(['s1', 's3', 's4']);
  expect((await ids(index, { match: { text: { query: 'approved budget', operator: 'or' } } })).sort()).toEqual(['s1', 's2', 's3', 's4']);
  // The one document with both words outranks those with one.
  const ranked = await ids(index, { match: { text: 'plan approval' } });
  expect(ranked[0]).toBe('s2');
  expect(ranked.slice(1).sort()).toEqual(['s1', 's3', 's4']);
  expect(await ids(index, { multi_match: { query: 'rec-3', fields: ['recording_id', 'text'] } })).toEqual(['s4']);
});

test('match_phrase matches the words in order only, a stop word keeping its place', async () => {
  const index = await segmentsIndex();
  expect(await ids(index, { match_phrase: { text: 'approved budget' } })).toEqual(['s3']);
  expect(await ids(index, { match_phrase: { text: 'budget approved' } })).toEqual([]);
  expect(await ids(index, { match_phrase: { text: 'budget was approved' } })).toEqual(['s1']);
  // As on a cluster: a stop word is no term, but it holds its position ("approve this budget").
  expect(await ids(index, { match_phrase: { text: 'approving the budget' } })).toEqual(['s4']);
  expect(await ids(index, { match_phrase: { text: { query: 'hiring plan' } } })).toEqual(['s2']);
  expect(await ids(index, { multi_match: { query: 'plan hiring', fields: ['text'], type: 'phrase' } })).toEqual([]);
});

test('bool combines must, should and must_not', async () => {
  const index = await segmentsIndex();
  expect((await ids(index, { bool: { must: { match: { text: 'budget' } }, must_not: [{ term: { org_id: 'org-b' } }] } })).sort()).toEqual([
    's1',
    's3',
  ]);
  const should = [
    { term: { speaker: 'spk_0' } },
    { match: { text: 'hiring' } },
    { term: { recording_id: 'rec-2' } },
    { match: { text: 'budget' } },
  ];
  expect((await ids(index, { bool: { should } })).sort()).toEqual(['s1', 's2', 's3', 's4', 's5']);
  expect((await ids(index, { bool: { should, minimum_should_match: 2 } })).sort()).toEqual(['s1', 's3', 's4']);
  expect(await ids(index, { bool: { should, minimum_should_match: 4 } })).toEqual(['s3']);
  expect(await ids(index, { bool: { filter: { term: { org_id: 'org-b' } }, should: { term: { speaker: 'spk_9' } } } })).toEqual(['s4']);
});

test('highlights mark the original words, with custom tags, where the text query matched', async () => {
  const index = await segmentsIndex();
  const { body } = await client.search({
    index,
    body: {
      query: { bool: { filter: { term: { org_id: 'org-a' } }, must: { match: { text: 'approve' } } } },
      highlight: { pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: { text: { number_of_fragments: 0 } } },
    },
  });
  const marks = Object.fromEntries(body.hits.hits.map((hit) => [hit._id, hit.highlight]));
  expect(marks).toEqual({
    s1: { text: ['The budget was <mark>Approved</mark> by the board.'] },
    s2: { text: ['We need <mark>approval</mark> for the new hiring plan.'] },
    s3: { text: ['Board <mark>approved</mark> budget; hiring is on hold.'] },
  });

  const phrase = await client.search({
    index,
    body: { query: { match_phrase: { text: 'budget is approved' } }, highlight: { fields: { text: { number_of_fragments: 0 } } } },
  });
  expect(phrase.body.hits.hits.map((hit) => hit.highlight)).toEqual([
    { text: ['The <em>budget</em> was <em>Approved</em> by the board.'] },
  ]);
  const fragments = await failure(
    client.search({ index, body: { query: { match: { text: 'budget' } }, highlight: { fields: { text: {} } } } }),
  );
  expect(fragments.statusCode).toBe(400);
  expect(fragments.body.error.reason).toContain('number_of_fragments');
});

test('size and from page the hits, sort orders them, _source filters them', async () => {
  const index = await segmentsIndex();
  const { body } = await client.search({
    index,
    body: { size: 2, from: 1, sort: [{ start_time: 'desc' }], _source: ['speaker'], query: { match_all: {} } },
  });
  expect(body.hits.total).toEqual({ value: 5, relation: 'eq' });
  expect(body.hits.max_score).toBeNull();
  expect(body.hits.hits).toEqual([
    { _index: index, _id: 's2', _score: null, _source: { speaker: 'spk_1' }, sort: [4.2] },
    { _index: index, _id: 's4', _score: null, _source: { speaker: 'spk_0' }, sort: [2] },
  ]);
  expect(await ids(index, { match_all: {} }, { sort: [{ created_at: { order: 'desc' } }, { start_time: 'asc' }] })).toEqual([
    's4',
    's3',
    's5',
    's1',
    's2',
  ]);
  expect(await ids(index, { match_all: {} }, { size: 3 })).toEqual(['s1', 's2', 's3']);
  const text = await failure(client.search({ index, body: { sort: [{ text: 'asc' }] } }));
  expect(text.statusCode).toBe(400);
});

test('delete_by_query deletes what the query matches', async () => {
  const index = await segmentsIndex();
  const { body } = await client.deleteByQuery({ index, body: { query: { term: { recording_id: 'rec-1' } } } });
  expect(body).toMatchObject({ deleted: 2, failures: [] });
  expect((await ids(index, { match_all: {} })).sort()).toEqual(['s3', 's4', 's5']);
  expect((await client.deleteByQuery({ index, body: { query: { term: { recording_id: 'rec-1' } } } })).body).toMatchObject({ deleted: 0 });
});

test('a clause, an option or an endpoint it does not do answers 400 naming it', async () => {
  const index = await segmentsIndex();
  const clause = await failure(client.search({ index, body: { query: { wildcard: { text: 'app*' } } } as never }));
  expect(clause.statusCode).toBe(400);
  expect(clause.body.error.type).toBe('parsing_exception');
  expect(clause.body.error.reason).toContain('wildcard');
  const option = await failure(
    client.search({ index, body: { query: { match: { text: { query: 'budget', fuzziness: 'AUTO' } } } } as never }),
  );
  expect(option.body.error.reason).toContain('fuzziness');
  const aggregation = await failure(client.search({ index, body: { aggs: { speakers: { terms: { field: 'speaker' } } } } as never }));
  expect(aggregation.body.error.reason).toContain('aggs');
  const endpoint = await failure(client.transport.request({ method: 'GET', path: '/_cat/indices' }));
  expect(endpoint.statusCode).toBe(400);
  expect(endpoint.body.error.type).toBe('parsing_exception');
  expect((await failure(client.search({ index: 'no-such-index', body: { query: { match_all: {} } } }))).statusCode).toBe(404);
});

test('documents, mappings and aliases survive a restart on the same directory', async () => {
  const index = await segmentsIndex();
  await client.indices.putAlias({ index, name: 'kept-alias' });
  await client.bulk({
    body: [
      { index: { _index: 'kept-alias', _id: 's1' } },
      { org_id: 'org-a', text: 'Approved after the restart', created_at: '2024-05-01T00:00:00Z' },
    ],
  });
  await stop();
  await start();

  expect((await client.indices.exists({ index })).body).toBe(true);
  expect(Object.keys((await client.indices.getAlias({ name: 'kept-alias' })).body)).toEqual([index]);
  expect((await ids('kept-alias', { match: { text: 'approve' } })).sort()).toEqual(['s1', 's2', 's3', 's4']);
  expect(await ids('kept-alias', { range: { created_at: { gte: '2024-04-30T23:00:00-01:00' } } })).toEqual(['s1']);
  const { body } = await client.search({ index, body: { query: { term: { _id: 's1' } } } });
  expect(body.hits.hits[0]._source).toEqual({ org_id: 'org-a', text: 'Approved after the restart', created_at: '2024-05-01T00:00:00Z' });
  // Saved by renaming finished files: no temporary file is left behind.
  expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  expect(readdirSync(path.join(dataDir, 'indices')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
});

test('it starts on a directory that does not exist yet', async () => {
  const missing = path.join(dataDir, 'not-yet', 'here');
  const other = await startSearchEmulator({ host: '127.0.0.1', dataDir: missing });
  const otherClient = new Client({ node: other.endpoint });
  try {
    await otherClient.indices.create({ index: 'fresh', body: { mappings: MAPPINGS } });
    expect(existsSync(path.join(missing, 'catalog.json'))).toBe(true);
  } finally {
    await otherClient.close();
    await other.stop();
  }
});

test('search_after pages a sorted search from the last hit of the previous page', async () => {
  const index = await segmentsIndex();
  const sort = [{ recording_id: { order: 'asc' } }, { start_time: { order: 'asc' } }];
  const first = await client.search({ index, body: { size: 2, sort, _source: false } as never });
  const last = first.body.hits.hits[1];
  const rest = await client.search({ index, body: { size: 10, sort, _source: false, search_after: last.sort } as never });
  const all = await client.search({ index, body: { size: 10, sort, _source: false } as never });
  expect([...first.body.hits.hits, ...rest.body.hits.hits].map((hit) => hit._id)).toEqual(all.body.hits.hits.map((hit) => hit._id));
  await expect(client.search({ index, body: { search_after: ['x'] } as never })).rejects.toMatchObject({ statusCode: 400 });
});

test('as a serverless vector collection it generates every document id and has no _delete_by_query', async () => {
  const serverless = await startSearchEmulator({
    host: '127.0.0.1',
    dataDir: path.join(dataDir, 'vector'),
    serverlessVectorCollection: true,
  });
  const vectorClient = new Client({ node: serverless.endpoint });
  try {
    await vectorClient.indices.create({ index: 'vectors', body: { mappings: MAPPINGS } });
    const { body } = await vectorClient.bulk({
      body: [{ index: { _index: 'vectors', _id: 'mine' } }, { org_id: 'org-a' }, { index: { _index: 'vectors' } }, { org_id: 'org-a' }],
    });
    expect(body.items.map((item: Record<string, { status: number }>) => item.index.status)).toEqual([400, 201]);
    await expect(vectorClient.index({ index: 'vectors', id: 'mine', body: { org_id: 'org-a' } })).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(vectorClient.deleteByQuery({ index: 'vectors', body: { query: { match_all: {} } } })).rejects.toMatchObject({
      statusCode: 400,
    });
  } finally {
    await vectorClient.close();
    await serverless.stop();
  }
});

test('writes are appended to a journal, replayed at start up to a torn last line, and compacted once it outgrows the index', async () => {
  const dir = path.join(dataDir, 'journal');
  let server = await startSearchEmulator({ host: '127.0.0.1', dataDir: dir });
  let journalClient = new Client({ node: server.endpoint });
  await journalClient.indices.create({ index: 'journaled', body: { mappings: MAPPINGS } });
  await journalClient.bulk({
    body: [
      { index: { _index: 'journaled', _id: 'a' } },
      { org_id: 'org-a' },
      { index: { _index: 'journaled', _id: 'b' } },
      { org_id: 'org-b' },
    ],
  });
  await journalClient.bulk({ body: [{ delete: { _index: 'journaled', _id: 'a' } }] });
  await journalClient.close();
  await server.stop();
  const [journal] = readdirSync(path.join(dir, 'indices')).filter((name) => name.endsWith('.log'));
  expect(
    readFileSync(path.join(dir, 'indices', journal), 'utf8')
      .trim()
      .split('\n'),
  ).toHaveLength(3);
  appendFileSync(path.join(dir, 'indices', journal), '{"put":{"_id":"torn"');

  server = await startSearchEmulator({ host: '127.0.0.1', dataDir: dir });
  journalClient = new Client({ node: server.endpoint });
  try {
    const { body } = await journalClient.search({ index: 'journaled', body: { query: { match_all: {} } } });
    expect(body.hits.hits.map((hit) => hit._id)).toEqual(['b']);
    // A write after the restart takes the next sequence number, as if nothing had stopped.
    const { body: written } = await journalClient.index({ index: 'journaled', id: 'c', body: { org_id: 'org-c' } });
    expect(written._seq_no).toBe(3);
    const big = 'x'.repeat(4096);
    for (let round = 0; round < 3; round++)
      await journalClient.bulk({
        body: Array.from({ length: 100 }, (_, at) => [{ index: { _index: 'journaled', _id: `big-${at}` } }, { org_id: big }]).flat(),
      });
    expect(readdirSync(path.join(dir, 'indices')).filter((name) => name.endsWith('.log'))).toEqual([]);
  } finally {
    await journalClient.close();
    await server.stop();
  }
});
