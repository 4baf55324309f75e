import { reindexRecording } from '../../shared/domain/search/index-recording';
import type { Passage } from '../../shared/search/passages';
import type { SearchIndex } from '../../shared/search/search-index';
import { localDeployment } from '../support/api';
import { newSearchableRecording } from '../support/searchable-recording';

/**
 * The indexer's step (reindexRecording) on the emulator's table with a recording index in place of
 * OpenSearch: the generation is taken before the table is read, and a recording that changed while
 * it was indexed is indexed again, so the index ends with the table's latest state.
 */
const { db } = localDeployment();
const T0 = new Date('2036-02-01T00:00:00.000Z');

type Call = { kind: 'replace'; generation: number; titles: string[] } | { kind: 'remove' };

/** A search index that records what it is asked, and runs `during` inside its first write. */
function recordingIndex(during: () => Promise<void>) {
  const calls: Call[] = [];
  let first = true;
  const index: SearchIndex = {
    semantic: false,
    async replaceRecording(_org, _recording, passages: Passage[], generation) {
      calls.push({ kind: 'replace', generation, titles: passages.filter((p) => p.field === 'title').map((p) => p.text) });
      if (first) {
        first = false;
        await during();
      }
    },
    async removeRecording() {
      calls.push({ kind: 'remove' });
      if (first) {
        first = false;
        await during();
      }
    },
    search: () => Promise.resolve([]),
    show: () => Promise.resolve([]),
  };
  return { index, calls };
}

const newRecording = () => newSearchableRecording(db);

it('indexes again when the recording changed while it was indexed, with a later generation', async () => {
  const { orgId, recordingId, set } = await newRecording();
  const { index, calls } = recordingIndex(() => set('SET title = :title', { ':title': 'Budget review, renamed' }).then(() => undefined));
  const outcome = await reindexRecording({ db, index, now: () => T0 }, orgId, recordingId);
  expect(outcome).toEqual({ kind: 'indexed', passages: 1 });
  expect(calls).toEqual([
    { kind: 'replace', generation: T0.getTime(), titles: ['Budget review'] },
    { kind: 'replace', generation: T0.getTime() + 1, titles: ['Budget review, renamed'] },
  ]);
});

it('removes what it wrote when the recording went to the trash while it was indexed', async () => {
  const { orgId, recordingId, set } = await newRecording();
  const { index, calls } = recordingIndex(() => set('SET deleted_at = :at', { ':at': T0.toISOString() }).then(() => undefined));
  expect(await reindexRecording({ db, index, now: () => T0 }, orgId, recordingId)).toEqual({ kind: 'removed' });
  expect(calls.map((call) => call.kind)).toEqual(['replace', 'remove']);
});

it('indexes once when nothing changed meanwhile', async () => {
  const { orgId, recordingId } = await newRecording();
  const { index, calls } = recordingIndex(() => Promise.resolve());
  await reindexRecording({ db, index, now: () => T0 }, orgId, recordingId);
  expect(calls).toHaveLength(1);
});
