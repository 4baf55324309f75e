import { Client } from '@opensearch-project/opensearch';
import { passageFixture } from '../../support/passage-fixture';
import { startSearchStandIn } from '../../support/search-stand-in';
import type { Emulator } from '../../../infra/local/emulators';
import { OpenSearchIndex } from '../../../shared/search/opensearch-index';
import type { Passage } from '../../../shared/search/passages';
import type { PassageQuery } from '../../../shared/search/search-index';

/** The adapter as `npm start` runs it: the official client against the local stand-in of OpenSearch's REST API. */
let emulator: Emulator;
let index: OpenSearchIndex;

beforeAll(async () => {
  let client: Client;
  ({ emulator, client } = await startSearchStandIn('search-index'));
  index = new OpenSearchIndex(client);
});
afterAll(() => emulator.stop());

const passage = (org: string, recording: string, place: number, text: string, generation = 1, rest: Partial<Passage> = {}): Passage =>
  passageFixture({
    id: `${recording}:transcript:${place}`,
    org_id: org,
    recording_id: recording,
    text,
    start_time: place * 10,
    end_time: place * 10 + 5,
    generation,
    ...rest,
  });

const query = (orgId: string, words: string, rest: Partial<PassageQuery> = {}): PassageQuery => ({
  orgId,
  words,
  phrases: [],
  mode: 'keyword',
  fields: ['transcript', 'summary', 'action_items', 'title'],
  size: 50,
  ...rest,
});

describe('OpenSearchIndex on the local stand-in', () => {
  beforeAll(async () => {
    await index.replaceRecording('org_a', 'rec_a1', [passage('org_a', 'rec_a1', 0, 'The budget was Approved on Monday.')], 1);
    await index.replaceRecording('org_b', 'rec_b1', [passage('org_b', 'rec_b1', 0, 'We approve the budget.')], 1);
  });

  it('finds a word in another inflection and case, with the matched word highlighted', async () => {
    const hits = await index.search(query('org_a', 'approve'));
    expect(hits.map((hit) => hit.passage.id)).toEqual(['rec_a1:transcript:0']);
    const [start, end] = hits[0].highlights[0];
    expect(hits[0].passage.text.slice(start, end)).toBe('Approved');
  });

  it("never answers another organization's passages, whatever the words", async () => {
    const hits = await index.search(query('org_b', 'budget approved monday'));
    expect(hits).toEqual([]);
    expect((await index.search(query('org_b', 'budget'))).map((hit) => hit.passage.org_id)).toEqual(['org_b']);
  });

  it('requires a quoted phrase as written', async () => {
    expect(await index.search(query('org_b', '', { phrases: ['approve the budget'] }))).toHaveLength(1);
    expect(await index.search(query('org_b', '', { phrases: ['budget approve'] }))).toHaveLength(0);
  });

  it("filters by recorder and by the recording's dates", async () => {
    expect(await index.search(query('org_a', 'budget', { recordedBy: 'usr_2' }))).toHaveLength(0);
    expect(await index.search(query('org_a', 'budget', { from: '2026-11-03T00:00:00.000Z' }))).toHaveLength(0);
    expect(await index.search(query('org_a', 'budget', { to: '2026-11-03T00:00:00.000Z' }))).toHaveLength(1);
  });

  it('replaces a recording with its new passages and leaves no older one', async () => {
    await index.replaceRecording(
      'org_a',
      'rec_a2',
      [passage('org_a', 'rec_a2', 0, 'hiring'), passage('org_a', 'rec_a2', 1, 'hiring plan')],
      1,
    );
    await index.replaceRecording('org_a', 'rec_a2', [passage('org_a', 'rec_a2', 0, 'hiring freeze', 2)], 2);
    const hits = await index.search(query('org_a', 'hiring'));
    expect(hits.map((hit) => [hit.passage.id, hit.passage.text])).toEqual([['rec_a2:transcript:0', 'hiring freeze']]);
  });

  it('removes every passage of a recording', async () => {
    await index.removeRecording('org_a', 'rec_a2');
    expect(await index.search(query('org_a', 'hiring'))).toEqual([]);
    expect(await index.search(query('org_a', 'budget'))).toHaveLength(1);
  });
});

describe('OpenSearchIndex when two indexers of one recording race', () => {
  it('keeps the newer generation when the older one finishes last', async () => {
    await index.replaceRecording('org_c', 'rec_c1', [passage('org_c', 'rec_c1', 0, 'quarterly forecast', 3)], 3);
    await index.replaceRecording('org_c', 'rec_c1', [passage('org_c', 'rec_c1', 0, 'draft forecast', 2)], 2);
    const hits = await index.search(query('org_c', 'forecast'));
    expect(hits.map((hit) => [hit.passage.text, hit.passage.generation])).toEqual([['quarterly forecast', 3]]);
  });

  it('finds a passage once while two generations of it are in the index', async () => {
    const client = new Client({ node: emulator.endpoint });
    await client.bulk({ body: [{ index: { _index: 'passages' } }, passage('org_c', 'rec_c2', 0, 'duplicate agenda', 9)], refresh: true });
    await client.bulk({ body: [{ index: { _index: 'passages' } }, passage('org_c', 'rec_c2', 0, 'duplicate agenda', 8)], refresh: true });
    expect(await index.search(query('org_c', 'agenda'))).toHaveLength(1);
  });

  it('removes every passage of a recording, however many pages of ids they take', async () => {
    const many = Array.from({ length: 1203 }, (_, place) => passage('org_c', 'rec_c3', place, `item ${place} of the inventory`, 4));
    await index.replaceRecording('org_c', 'rec_c3', many, 4);
    expect(await index.search(query('org_c', 'inventory', { size: 2000 }))).toHaveLength(1203);
    await index.removeRecording('org_c', 'rec_c3');
    expect(await index.search(query('org_c', 'inventory', { size: 2000 }))).toHaveLength(0);
  });
});
