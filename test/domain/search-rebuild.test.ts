import { Client } from '@opensearch-project/opensearch';
import { startSearchStandIn } from '../support/search-stand-in';
import type { Emulator } from '../../infra/local/emulators';
import { reindexRecording } from '../../shared/domain/search/index-recording';
import { rebuildSearchIndex, REBUILD_PAUSE_MS } from '../../shared/operator-tasks/search-rebuild';
import { OpenSearchIndex } from '../../shared/search/opensearch-index';
import { MAPPING_VERSION } from '../../shared/search/passage-mapping';
import type { PassageQuery } from '../../shared/search/search-index';
import { localDeployment } from '../support/api';
import { newSearchableRecording } from '../support/searchable-recording';

/**
 * `search rebuild` (shared/operator-tasks/search-rebuild.ts) on a stand-in of its own, from an
 * index of an older mapping: searches answer from the old index until the alias moves, a change
 * made during the rebuild reaches both indexes, and the old index is gone at the end.
 */
const { db } = localDeployment();
let tick = Date.parse('2036-02-01T00:00:00.000Z');
/** A clock a millisecond later at each reading: each indexing is a later generation. */
const now = () => new Date(tick++);
let emulator: Emulator;
let client: Client;

beforeAll(async () => {
  ({ emulator, client } = await startSearchStandIn('search-rebuild'));
});
afterAll(() => emulator.stop());

const budget = (orgId: string): PassageQuery => ({
  orgId,
  words: 'budget',
  phrases: [],
  mode: 'keyword',
  fields: ['title', 'transcript', 'summary', 'action_items'],
  size: 10,
});

it('builds the current mapping beside the old one and moves the alias, with no gap in answers', async () => {
  const { orgId, recordingId, set } = await newSearchableRecording(db);
  const older = new OpenSearchIndex(client, undefined, MAPPING_VERSION - 1);
  await reindexRecording({ db, index: older, now }, orgId, recordingId);
  const current = new OpenSearchIndex(client);
  const titles = async () => (await current.search(budget(orgId))).map((hit) => hit.passage.title);

  const rebuilt = await rebuildSearchIndex({
    db,
    index: current,
    now,
    organizations: async function* () {
      yield [orgId];
    },
    pause: async (ms) => {
      expect(ms).toBe(REBUILD_PAUSE_MS);
      // Before any recording is reindexed, searches answer from the old index; a change now reaches both.
      expect(await titles()).toEqual(['Budget review']);
      await set('SET title = :title', { ':title': 'Budget review, final' });
      await reindexRecording({ db, index: current, now }, orgId, recordingId);
      expect(await titles()).toEqual(['Budget review, final']);
    },
  });

  expect(rebuilt).toMatchObject({ rebuilt: true, from: [`passages-v${MAPPING_VERSION - 1}`], index: `passages-v${MAPPING_VERSION}` });
  expect(await current.aliasTargets()).toEqual([`passages-v${MAPPING_VERSION}`]);
  expect((await client.indices.exists({ index: `passages-v${MAPPING_VERSION - 1}` })).statusCode).toBe(404);
  expect(await titles()).toEqual(['Budget review, final']);
  expect(await rebuildSearchIndex({ db, index: current, now, pause: () => Promise.reject(new Error('no pause expected')) })).toEqual({
    rebuilt: false,
    index: `passages-v${MAPPING_VERSION}`,
  });
});
