import { Client } from '@opensearch-project/opensearch';
import { startSearchStandIn } from '../../support/search-stand-in';
import type { Emulator } from '../../../infra/local/emulators';
import type { Caller } from '../../../shared/auth/policy';
import { parseQuery, searchRecordings, type SearchRequest } from '../../../shared/domain/search/search-recordings';
import { OpenSearchIndex } from '../../../shared/search/opensearch-index';
import type { Passage } from '../../../shared/search/passages';
import type { SearchIndex } from '../../../shared/search/search-index';

let emulator: Emulator;
let index: OpenSearchIndex;

const passage = (recording: string, recordedBy: string, place: number, text: string): Passage => ({
  id: `${recording}:transcript:${place}`,
  org_id: 'org_1',
  recording_id: recording,
  recorded_by: recordedBy,
  created_at: '2026-11-02T09:00:00.000Z',
  language: 'en-US',
  title: `Meeting ${recording}`,
  field: 'transcript',
  text,
  start_time: place * 10,
  end_time: place * 10 + 4,
  speaker: 'Speaker 1',
  summary_id: null,
  action_item_id: null,
  generation: 1,
});

beforeAll(async () => {
  let client: Client;
  ({ emulator, client } = await startSearchStandIn('search-domain'));
  index = new OpenSearchIndex(client);
  for (let r = 0; r < 5; r++) {
    const owner = r % 2 ? 'usr_mia' : 'usr_adam';
    await index.replaceRecording(
      'org_1',
      `rec_${r}`,
      [passage(`rec_${r}`, owner, 0, 'The budget is approved.'), passage(`rec_${r}`, owner, 1, 'Budget talk again.')],
      1,
    );
  }
});
afterAll(() => emulator.stop());

const orgKey = { kind: 'org_key', orgId: 'org_1' } as Caller;
const miaKey = { kind: 'user_key', orgId: 'org_1', userId: 'usr_mia' } as Caller;
const request = (rest: Partial<SearchRequest> = {}): SearchRequest => ({
  q: 'budget',
  mode: 'hybrid',
  in: ['transcript'],
  limit: 2,
  ...rest,
});

describe('parseQuery', () => {
  it('takes quoted phrases apart from the words', () => {
    expect(parseQuery('"budget approved" hire "" now"')).toEqual({ words: 'hire now', phrases: ['budget approved'] });
  });
});

describe('searchRecordings', () => {
  it("ranks without the passages' text, then fetches the text of the ones the page shows only", async () => {
    const searched: boolean[] = [];
    const shown: number[] = [];
    const spy = Object.assign(Object.create(index) as OpenSearchIndex, {
      search: (query: Parameters<OpenSearchIndex['search']>[0]) => (searched.push(query.light === true), index.search(query)),
      show: (query: Parameters<OpenSearchIndex['show']>[0], refs: readonly string[]) => (shown.push(refs.length), index.show(query, refs)),
    });
    const { results } = await searchRecordings({ index: spy }, orgKey, request({ limit: 2 }));
    expect(searched).toEqual([true]);
    expect(shown).toEqual([4]);
    expect(results.flatMap((result) => result.matches.map((match) => match.text))).toContain('The budget is approved.');
  });

  it('groups passages by recording, each with its matches and their times', async () => {
    const { results } = await searchRecordings({ index }, orgKey, request({ limit: 10 }));
    expect(results).toHaveLength(5);
    expect(results[0].matches).toHaveLength(2);
    const match = results[0].matches[0];
    expect(match.text.slice(match.highlights[0][0], match.highlights[0][1]).toLowerCase()).toBe('budget');
    expect(typeof match.start_time).toBe('number');
  });

  it('pages through recordings with a cursor, and refuses the cursor for another query', async () => {
    const first = await searchRecordings({ index }, orgKey, request());
    const second = await searchRecordings({ index }, orgKey, request({ cursor: first.next_cursor! }));
    const third = await searchRecordings({ index }, orgKey, request({ cursor: second.next_cursor! }));
    const ids = [first, second, third].flatMap((page) => page.results.map((result) => result.recording_id));
    expect(new Set(ids).size).toBe(5);
    expect(third.next_cursor).toBeNull();
    await expect(searchRecordings({ index }, orgKey, request({ q: 'approved', cursor: first.next_cursor! }))).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it("lets a personal key find only its owner's recordings, whatever recorded_by says", async () => {
    const own = await searchRecordings({ index }, miaKey, request({ limit: 10 }));
    expect(own.results.map((result) => result.recorded_by)).toEqual(['usr_mia', 'usr_mia']);
    expect((await searchRecordings({ index }, miaKey, request({ recorded_by: 'usr_adam' }))).results).toEqual([]);
  });

  it('refuses semantic search without an embedding model', async () => {
    await expect(searchRecordings({ index }, orgKey, request({ mode: 'semantic' }))).rejects.toMatchObject({
      statusCode: 409,
      code: 'SEMANTIC_SEARCH_UNAVAILABLE',
    });
  });
});

describe('searchRecordings: how deep it ranks', () => {
  /** An index of 300 ranked passages: the first 150 all of one recording, then one passage each of 150 others. */
  function concentrated() {
    const ranked = Array.from({ length: 300 }, (_, at) => {
      const recording = at < 150 ? 'rec_busy' : `rec_${at}`;
      return { passage: { ...passage(recording, 'usr_adam', at, 'budget'), id: `p${at}` }, score: 300 - at, highlights: [], ref: `d${at}` };
    });
    const sizes: number[] = [];
    const fake: SearchIndex = {
      semantic: false,
      replaceRecording: () => Promise.resolve(),
      removeRecording: () => Promise.resolve(),
      search: (query) => (sizes.push(query.size), Promise.resolve(ranked.slice(0, query.size))),
      show: (_query, refs) => Promise.resolve(ranked.filter((hit) => refs.includes(hit.ref))),
    };
    return { fake, sizes };
  }

  it('ranks only as deep as the page needs, and deeper when a few recordings hold the best passages', async () => {
    const { fake, sizes } = concentrated();
    const { results, next_cursor } = await searchRecordings({ index: fake }, orgKey, request({ limit: 3 }));
    expect(sizes).toEqual([40, 160]);
    expect(results.map((result) => result.recording_id)).toEqual(['rec_busy', 'rec_150', 'rec_151']);
    expect(results[0].matches).toHaveLength(5);
    expect(next_cursor).not.toBeNull();
  });
});
