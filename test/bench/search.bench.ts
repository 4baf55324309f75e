/**
 * Search and Ask (docs/search.md) on this machine's emulators, in two parts.
 *
 * On the benchmark's own DynamoDB Local and an in-process OpenSearch stand-in
 * (infra/local/search-emulator.ts, the one `npm start` runs): an organization of 100 transcribed
 * recordings and one of 10,000 (SEARCH_BENCH_RECORDINGS changes the large one while developing),
 * built by test/bench/support/search-corpus.ts and written with BatchWrite as the seed writes
 * them, then indexed by the operator's reindexOrganization: its recordings/s and passages/s,
 * the 100 into an empty index, then the 10,000. Search is timed in the domain (searchRecordings
 * with the request the route parses from `?q=...`, an organization key's caller) for a common
 * word, a rare word, a quoted phrase and a word with recorded_by: WARM_UPS then RUNS calls per
 * query and organization, every answer checked against the corpus first. Goal: the median at
 * 10,000 within 1.5× the median at 100. Two more figures show what a search's cost grows with:
 * the 100's medians with nothing else in the index (against them, what the 10,000's passages
 * add to another organization's search on the stand-in), and one indexer step (reindexRecording)
 * with 100 and with 10,100 recordings in the index.
 *
 * The HTTP route is timed on the local deployment, with the 100 only: a local deployment indexes
 * what its table receives through its own event pipeline, one event per recording, which for
 * 10,000 seeded recordings takes several minutes more than the reindex above.
 *
 * On the local deployment (`npm start`'s entry point, test/bench/support/load-deployment.ts):
 * the 100 recordings loaded by the seed and indexed by the pipeline; GET .../search timed as
 * above; the lag from a title change (PUT of the recording, from its 200) until Search finds the
 * new title, over LAG_TRIALS trials (goal ≤ 2 s, every trial); POST .../ask (the extractive
 * answerer) for ASK_QUESTIONS questions, p50 and p95 (no goal: in AWS the answer is Bedrock's).
 *
 * Everything runs on the same 2 cores: latencies compare with each other within one run, not
 * with OpenSearch Serverless. Results go to stdout and to bench-results/search.json.
 *
 *   npx tsx test/bench/search.bench.ts        (or npm run bench -- search)
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { startSearchEmulator } from '../../infra/local/search-emulator';
import type { Caller } from '../../shared/auth/policy';
import { reindexRecording } from '../../shared/domain/search/index-recording';
import { searchRecordings, type SearchRequest, type SearchResult } from '../../shared/domain/search/search-recordings';
import { reindexOrganization } from '../../shared/operator-tasks/search-reindex';
import { ROUTES } from '../../shared/routes/manifest';
import { SearchQuery } from '../../shared/schemas/search';
import { openSearchIndexOf } from '../../shared/search/search-client';
import { readSearchableRecording } from '../../shared/storage/search-sources';
import { call } from '../support/api';
import { inPool } from '../support/in-pool';
import { buildOrg } from '../support/org-builder';
import {
  batchPut,
  chunks,
  median,
  percentile,
  printTable,
  reportHeader,
  round,
  secondsSince,
  timeCalls,
  withBenchTable,
  writeReport,
} from './support/bench-harness';
import { runAlone, startedDirectly, type SummaryBench, type SummaryRow } from './support/bench-summary';
import { withLocalDeployment } from './support/load-deployment';
import { corpusItems, corpusOf, matchingIds, passageCount, questions, SEARCHED, type Corpus } from './support/search-corpus';

const WARM_UPS = 3;
const RUNS = 30;
const SMALL = 100;
const LARGE = largeOrgSize(process.env.SEARCH_BENCH_RECORDINGS, 10_000);
/** The search's goal: the median at LARGE within this many times the median at SMALL. */
const RATIO_GOAL = 1.5;
const LAG_TRIALS = 12;
const LAG_GOAL_SECONDS = 2;
const ASK_QUESTIONS = 24;
/** Indexer steps timed per index size (reindexRecording of one recording already indexed). */
const STEPS = 10;
const RECORDERS = 10;
const REGION = 'us-east-1';
/** BatchWrite's maximum; several batches in flight. */
const BATCH_SIZE = 25;
const WRITE_CONCURRENCY = 8;
const RESULTS_FILE = path.resolve(__dirname, '../../bench-results/search.json');
/** Polling and timing send hundreds of requests a minute to one organization: far below these limits. */
const DEPLOYMENT_ENV = {
  RATE_LIMIT_DEFAULT_RATE: '10000',
  RATE_LIMIT_DEFAULT_BURST: '100000',
  LOCAL_TTL_SWEEP_SECONDS: '0',
  LOCAL_TRANSCRIPTION_SWEEP_SECONDS: '0',
};

function largeOrgSize(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < SMALL) throw new Error(`SEARCH_BENCH_RECORDINGS must be a whole number of at least ${SMALL}`);
  return value;
}

const count = (n: number) => n.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------
// Queries

interface QueryCase {
  key: 'common' | 'rare' | 'phrase' | 'recorder';
  label: string;
  q: string;
  pattern: RegExp;
  /** Only the recordings of the corpus's recorder at this position. */
  recorder?: number;
}

const QUERIES: QueryCase[] = [
  { key: 'common', label: `common word q=${SEARCHED.common.q}`, ...SEARCHED.common },
  { key: 'rare', label: `rare word q=${SEARCHED.rare.q}`, ...SEARCHED.rare },
  { key: 'phrase', label: `quoted phrase q=${SEARCHED.phrase.q}`, ...SEARCHED.phrase },
  { key: 'recorder', label: `q=${SEARCHED.common.q}&recorded_by (1 of ${RECORDERS})`, ...SEARCHED.common, recorder: 3 },
];

/** The query string a client sends for the case (the route's defaults for everything else). */
function queryOf(query: QueryCase, corpus: Corpus): Record<string, string> {
  return { q: query.q, ...(query.recorder === undefined ? {} : { recorded_by: corpus.recorders[query.recorder] }) };
}

/** Fails unless the answer is the first page of what the corpus says the query matches. */
function checkAnswer(where: string, results: SearchResult[], limit: number, query: QueryCase, corpus: Corpus): number {
  const recordedBy = query.recorder === undefined ? undefined : corpus.recorders[query.recorder];
  const expected = matchingIds(corpus, query.pattern, recordedBy);
  const wrong = results.filter((result) => !expected.has(result.recording_id) || (recordedBy && result.recorded_by !== recordedBy));
  if (wrong.length) throw new Error(`${where}: ${wrong.map((result) => result.recording_id).join(', ')} should not match`);
  if (results.length !== Math.min(limit, expected.size))
    throw new Error(`${where}: ${results.length} results on page 1, expected ${Math.min(limit, expected.size)} of ${expected.size}`);
  return expected.size;
}

interface QueryTiming {
  org: string;
  recordings: number;
  key: QueryCase['key'];
  query: string;
  /** Recordings of the organization the query matches. */
  matching: number;
  results: number;
  p50_ms: number;
  p95_ms: number;
  min_ms: number;
  max_ms: number;
}

function timing(corpus: Corpus, query: QueryCase, matching: number, results: number, times: number[]): QueryTiming {
  return {
    org: corpus.orgId,
    recordings: corpus.recordings.length,
    key: query.key,
    query: new URLSearchParams(queryOf(query, corpus)).toString(),
    matching,
    results,
    p50_ms: round(median(times)),
    p95_ms: round(percentile(times, 95)),
    min_ms: round(Math.min(...times)),
    max_ms: round(Math.max(...times)),
  };
}

// ---------------------------------------------------------------------------------------
// Indexing and search on the stand-in

interface Indexing {
  recordings: number;
  passages: number;
  seconds: number;
  recordings_per_second: number;
  passages_per_second: number;
}

interface StandInResult {
  write_seconds: number;
  indexing: { small: Indexing; large: Indexing };
  /** The 100's searches with nothing else in the index. */
  small_alone: QueryTiming[];
  /** Both organizations' searches with both in the index. */
  both: QueryTiming[];
  /** One indexer step (ms): with the 100 in the index, then with the 100 and the large. */
  step_ms: { small_index: number[]; large_index: number[] };
}

const recorderIds = (label: string) => Array.from({ length: RECORDERS }, (_, i) => `usr_bench_${label}_rec${i}`);

async function indexOrganization(deps: Parameters<typeof reindexOrganization>[0], corpus: Corpus): Promise<Indexing> {
  const started = performance.now();
  const totals = await reindexOrganization(deps, corpus.orgId);
  const seconds = (performance.now() - started) / 1000;
  const passages = passageCount(corpus);
  if (totals.indexed !== corpus.recordings.length || totals.removed !== 0 || totals.passages !== passages)
    throw new Error(
      `reindex of ${corpus.orgId}: ${JSON.stringify(totals)}, expected ${corpus.recordings.length} indexed, ${passages} passages`,
    );
  return {
    recordings: totals.indexed,
    passages: totals.passages,
    seconds: round(seconds),
    recordings_per_second: round(totals.indexed / seconds),
    passages_per_second: round(totals.passages / seconds),
  };
}

async function measureOnStandIn(): Promise<StandInResult> {
  return withBenchTable('search', async ({ setupDb, benchDb }) => {
    const now = new Date();
    const small = corpusOf({ orgId: 'org_bench_search_small', size: SMALL, recorders: recorderIds('small'), seed: 100, idPrefix: 'bss' });
    const large = corpusOf({
      orgId: 'org_bench_search_large',
      size: LARGE,
      recorders: recorderIds('large'),
      seed: 10_000,
      idPrefix: 'bsl',
    });
    const writing = performance.now();
    const items = [...corpusItems(small, now), ...corpusItems(large, now)];
    await inPool(chunks(items, BATCH_SIZE), WRITE_CONCURRENCY, (batch) => batchPut(setupDb, batch));
    const writeSeconds = secondsSince(writing);
    console.log(`${count(items.length)} items of ${count(SMALL + LARGE)} recordings written with BatchWrite in ${writeSeconds} s`);
    // What the indexer reads of a batch-written recording must be its transcript as the corpus says it.
    const sample = large.recordings[17];
    const read = await readSearchableRecording(setupDb, large.orgId, sample.id);
    if (JSON.stringify(read?.segments) !== JSON.stringify(sample.transcript) || read?.recording.title !== sample.title)
      throw new Error(`${sample.id} reads back as ${JSON.stringify(read)}`);

    const searchDir = mkdtempSync(path.join(os.tmpdir(), 'search-bench-index-'));
    const removeSearchDir = () => rmSync(searchDir, { recursive: true, force: true });
    // withBenchTable exits on Ctrl-C or kill: the index's files go too.
    process.once('exit', removeSearchDir);
    const standIn = await startSearchEmulator({ host: '127.0.0.1', dataDir: searchDir });
    try {
      const searchIndex = openSearchIndexOf({ endpoint: standIn.endpoint, signing: 'none', region: REGION });
      const deps = { db: benchDb, index: searchIndex, now: () => new Date() };
      const searchAll = async (corpora: Corpus[]) => {
        const timings: QueryTiming[] = [];
        for (const query of QUERIES)
          for (const corpus of corpora) {
            const caller: Caller = {
              kind: 'org_key',
              orgId: corpus.orgId,
              keyId: 'key_bench',
              scopes: ['recordings:read'],
              actor: 'key_bench',
            };
            const request: SearchRequest = v.parse(SearchQuery, queryOf(query, corpus));
            const search = () => searchRecordings({ index: searchIndex }, caller, request);
            const answer = await search();
            const matching = checkAnswer(`${corpus.orgId} ${query.label}`, answer.results, request.limit, query, corpus);
            timings.push(timing(corpus, query, matching, answer.results.length, await timeCalls(search, WARM_UPS, RUNS)));
          }
        return timings;
      };
      // The indexer's step on recordings already indexed (the first two untimed): written again, the old generation removed.
      const steps = async () => {
        const ids = small.recordings.slice(0, STEPS + 2).map((recording) => recording.id);
        const times: number[] = [];
        for (const [i, id] of ids.entries()) {
          const started = performance.now();
          await reindexRecording(deps, small.orgId, id);
          if (i >= 2) times.push(round(performance.now() - started));
        }
        return times;
      };

      const smallIndexing = await indexOrganization(deps, small);
      console.log(`${small.orgId}: indexed in ${smallIndexing.seconds} s; searching it alone`);
      const smallAlone = await searchAll([small]);
      const smallSteps = await steps();
      console.log(`Indexing ${count(LARGE)} recordings (${count(passageCount(large))} passages)…`);
      const largeIndexing = await indexOrganization(deps, large);
      console.log(`${large.orgId}: indexed in ${largeIndexing.seconds} s; searching both`);
      const both = await searchAll([small, large]);
      const largeSteps = await steps();
      return {
        write_seconds: writeSeconds,
        indexing: { small: smallIndexing, large: largeIndexing },
        small_alone: smallAlone,
        both,
        step_ms: { small_index: smallSteps, large_index: largeSteps },
      };
    } finally {
      await standIn.stop();
      removeSearchDir();
      process.off('exit', removeSearchDir);
    }
  });
}

// ---------------------------------------------------------------------------------------
// The local deployment: the route, the lag, Ask

interface DeploymentResult {
  seed_seconds: number;
  /** From the seed's end until the pipeline had indexed every recording. */
  indexed_after_seconds: number;
  http: QueryTiming[];
  lag: { put_ms: number; lag_seconds: number }[];
  ask: { question: string; ms: number; citations: number }[];
}

async function measureOnDeployment(): Promise<DeploymentResult> {
  return withLocalDeployment('search', DEPLOYMENT_ENV, async ({ runtime, seed }) => {
    const org = buildOrg({
      label: 'search',
      extraMembers: RECORDERS - 4,
      keys: { reader: { scopes: ['recordings:read', 'recordings:write'] } },
    });
    const recorders = [...Object.values(org.people), ...org.extra].map((person) => person.id);
    const corpus = corpusOf({ orgId: org.org, size: SMALL, recorders, seed: 100, idPrefix: `bss_${org.id}` });
    const seeding = performance.now();
    await seed({ ...org.fixture, recordings: corpus.recordings });
    const seedSeconds = secondsSince(seeding);

    const token = org.keys.reader;
    const send = async (method: string, pathAndQuery: string, body?: unknown): Promise<any> => {
      const response = await fetch(`${runtime.apiUrl}${pathAndQuery}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${text}`);
      return JSON.parse(text);
    };
    const searchPath = (query: Record<string, string>) =>
      `${ROUTES.searchRecordings.path.replace('{orgId}', org.org)}?${new URLSearchParams(query).toString()}`;
    /** Every recording the query finds, page after page. */
    const allFound = async (query: Record<string, string>) => {
      const found: SearchResult[] = [];
      let cursor: string | null = null;
      do {
        const page = await send('GET', searchPath({ ...query, limit: '50', ...(cursor ? { cursor } : {}) }));
        found.push(...(page.results as SearchResult[]));
        cursor = page.next_cursor as string | null;
      } while (cursor);
      return found;
    };

    // Every title ends with "meeting": once a title search finds them all, the pipeline has indexed the seed.
    const indexing = performance.now();
    while ((await allFound({ q: 'meeting', in: 'title' })).length < SMALL) {
      if (performance.now() - indexing > 180_000) throw new Error('The pipeline had not indexed the seeded recordings within 3 minutes');
      await delay(200);
    }
    const indexedAfter = secondsSince(indexing);
    console.log(`Seeded ${SMALL} recordings in ${seedSeconds} s; the pipeline had indexed them ${indexedAfter} s later`);

    const http: QueryTiming[] = [];
    for (const query of QUERIES) {
      const path = searchPath(queryOf(query, corpus));
      // Once through the contract check (the OpenAPI document), then timed without it.
      const checked = await call(runtime.apiUrl, 'GET', path, { token });
      if (checked.status !== 200) throw new Error(`GET ${path}: ${checked.status} ${JSON.stringify(checked.body)}`);
      const matching = checkAnswer(`HTTP ${query.label}`, checked.body.results, 10, query, corpus);
      http.push(timing(corpus, query, matching, checked.body.results.length, await timeCalls(() => send('GET', path), WARM_UPS, RUNS)));
    }

    // One untimed trial first; each trial retitles another recording with a word no other holds.
    const lag: DeploymentResult['lag'] = [];
    for (let trial = 0; trial <= LAG_TRIALS; trial++) {
      const recording = corpus.recordings[trial];
      const word = `lagprobe${trial}`;
      const sent = performance.now();
      await send('PUT', ROUTES.updateRecording.path.replace('{orgId}', org.org).replace('{recordingId}', recording.id), {
        title: `${recording.title} ${word}`,
      });
      const committed = performance.now();
      const wanted = searchPath({ q: word, in: 'title' });
      while (!(await send('GET', wanted)).results.some((result: SearchResult) => result.recording_id === recording.id)) {
        if (performance.now() - committed > 30_000) throw new Error(`${word} not searchable within 30 s`);
        await delay(20);
      }
      const found = performance.now();
      if (trial > 0) lag.push({ put_ms: round(committed - sent), lag_seconds: round((found - committed) / 1000) });
      // The next change finds the pipeline idle, as a change on its own does.
      await delay(300);
    }

    const ask: DeploymentResult['ask'] = [];
    const askPath = ROUTES.askQuestion.path.replace('{orgId}', org.org);
    const asked = questions(ASK_QUESTIONS);
    const first = await call(runtime.apiUrl, 'POST', askPath, { token, body: { question: asked[0] } });
    if (first.status !== 200) throw new Error(`POST ${askPath}: ${first.status} ${JSON.stringify(first.body)}`);
    await send('POST', askPath, { question: asked[1] });
    for (const question of asked) {
      const started = performance.now();
      const answer = await send('POST', askPath, { question });
      // Every question is about a piece of work the meetings discuss: an answer citing nothing is a failure.
      if (!answer.citations.length) throw new Error(`Ask cited nothing for "${question}": ${JSON.stringify(answer)}`);
      ask.push({ question, ms: round(performance.now() - started), citations: answer.citations.length });
    }
    return { seed_seconds: seedSeconds, indexed_after_seconds: indexedAfter, http, lag, ask };
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// Figures

interface Result {
  rows: SummaryRow[];
  standIn: StandInResult;
  deployment: DeploymentResult;
  totalSeconds: number;
}

function rowsOf(standIn: StandInResult, deployment: DeploymentResult): SummaryRow[] {
  const at = (timings: QueryTiming[], key: QueryCase['key'], recordings: number) =>
    timings.find((t) => t.key === key && t.recordings === recordings)!;
  const rows: SummaryRow[] = QUERIES.map((query) => {
    const [small, large] = [at(standIn.both, query.key, SMALL), at(standIn.both, query.key, LARGE)];
    const ratio = large.p50_ms / small.p50_ms;
    return {
      area: 'search',
      measure: `Search p50 ms at ${count(LARGE)} / at ${SMALL} recordings, ${query.label} (matches ${count(large.matching)} / ${small.matching} recordings)`,
      value: `${large.p50_ms.toFixed(1)} / ${small.p50_ms.toFixed(1)} = ${ratio.toFixed(2)}×`,
      goal: `≤ ${RATIO_GOAL}×`,
      met: ratio <= RATIO_GOAL,
    };
  });
  const list = (timings: QueryTiming[]) => timings.map((t) => t.p50_ms.toFixed(1)).join(' / ');
  rows.push(
    {
      area: 'search',
      measure: `Search p50 ms at ${SMALL} with nothing else in the index: ${QUERIES.map((q) => q.key).join(' / ')}`,
      value: list(standIn.small_alone),
    },
    {
      area: 'search',
      measure: `Search over HTTP on the local deployment, ${SMALL} recordings, p50 ms: ${QUERIES.map((q) => q.key).join(' / ')}`,
      value: list(deployment.http),
    },
  );
  for (const [label, indexing] of [
    [`${SMALL} recordings, empty index`, standIn.indexing.small],
    [`${count(LARGE)} recordings, after the ${SMALL}`, standIn.indexing.large],
  ] as const)
    rows.push({
      area: 'search',
      measure: `reindexOrganization, ${label}: recordings/s, passages/s (s)`,
      value: `${indexing.recordings_per_second.toFixed(1)}, ${indexing.passages_per_second.toFixed(1)} (${indexing.seconds.toFixed(1)} s)`,
    });
  rows.push({
    area: 'search',
    measure: `One indexer step (reindexRecording) with ${SMALL} / ${count(SMALL + LARGE)} recordings in the index: p50 ms`,
    value: `${median(standIn.step_ms.small_index).toFixed(1)} / ${median(standIn.step_ms.large_index).toFixed(1)}`,
  });
  const lags = deployment.lag.map((trial) => trial.lag_seconds);
  const maxLag = Math.max(...lags);
  rows.push({
    area: 'search',
    measure: `Lag from a title change's 200 to Search finding it, local deployment (${lags.length} trials): p50 / max, s`,
    value: `${median(lags).toFixed(2)} / ${maxLag.toFixed(2)}`,
    goal: `≤ ${LAG_GOAL_SECONDS} s`,
    met: maxLag <= LAG_GOAL_SECONDS,
  });
  const asks = deployment.ask.map((a) => a.ms);
  rows.push({
    area: 'ask',
    measure: `Ask on the local deployment (extractive answerer), ${asks.length} questions over ${SMALL} recordings: p50 / p95 ms`,
    value: `${median(asks).toFixed(0)} / ${percentile(asks, 95).toFixed(0)}`,
  });
  return rows;
}

function printDetails({ standIn, deployment }: Result): void {
  const timingRows = (where: string, timings: QueryTiming[]) =>
    timings.map((t) => [
      where,
      `${count(t.recordings)}`,
      t.query,
      count(t.matching),
      String(t.results),
      t.p50_ms.toFixed(1),
      t.p95_ms.toFixed(1),
      t.min_ms.toFixed(1),
      t.max_ms.toFixed(1),
    ]);
  console.log(`\nSearch: ${WARM_UPS} warm-ups then ${RUNS} timed calls per row; every answer checked against the corpus.\n`);
  printTable(
    ['where', 'org', 'query', 'matching', 'results', 'p50 ms', 'p95 ms', 'min ms', 'max ms'],
    [
      ...timingRows(`domain, ${SMALL} alone in the index`, standIn.small_alone),
      ...timingRows('domain, both in the index', standIn.both),
      ...timingRows('HTTP, local deployment', deployment.http),
    ],
    3,
  );
  console.log('\nreindexOrganization on the stand-in:\n');
  printTable(
    ['organization', 'recordings', 'passages', 's', 'recordings/s', 'passages/s'],
    [
      ['small, empty index', standIn.indexing.small],
      ['large, after the small', standIn.indexing.large],
    ].map(([label, i]) => {
      const indexing = i as Indexing;
      return [
        label as string,
        count(indexing.recordings),
        count(indexing.passages),
        indexing.seconds.toFixed(1),
        indexing.recordings_per_second.toFixed(1),
        indexing.passages_per_second.toFixed(1),
      ];
    }),
    1,
  );
  console.log(`\nLag per trial, s: ${deployment.lag.map((trial) => trial.lag_seconds.toFixed(2)).join(', ')}`);
  console.log(`Ask per question, ms: ${deployment.ask.map((a) => `${a.ms.toFixed(0)} (${a.citations} cited)`).join(', ')}`);
}

async function measure(): Promise<Result> {
  const started = performance.now();
  // The deployment's part first: it is the short one, so a failure there shows at once.
  const deployment = await measureOnDeployment();
  const standIn = await measureOnStandIn();
  const rows = rowsOf(standIn, deployment);
  const totalSeconds = secondsSince(started);
  printDetails({ rows, standIn, deployment, totalSeconds });
  writeReport(
    RESULTS_FILE,
    { ...reportHeader(WARM_UPS, RUNS), recordings: { small: SMALL, large: LARGE }, total_seconds: totalSeconds, standIn, deployment, rows },
    totalSeconds,
  );
  return { rows, standIn, deployment, totalSeconds };
}

export const summary: SummaryBench = async () => (await measure()).rows;

if (startedDirectly(__filename)) runAlone(measure, () => {});
