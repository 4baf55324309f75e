import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { pageOfRecordings, recordingListCursor } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { type RecordingFilter } from '../../shared/storage/recording-index';
import { readRecordingPage } from '../../shared/storage/recording-pages';
import type { Recording } from '../../shared/storage/recording-items';
import { localDeployment, seed, unique } from '../support/api';

/**
 * Deep page numbers of List recordings (listRecordings) are read from the nearer end: a
 * page in the list's later half is read oldest first and reversed. Generated small orgs
 * (created_at ties, two recorders, three tags, some recordings in the trash), every filter
 * kind (the org's and the recorder's counters, COUNT totals, merged tag links, filter
 * expressions), a random limit and every page number up to past the end: each answer must
 * be the page the forward read (readRecordingPage with an offset, the algorithm before)
 * answers, and the slice of the list computed in memory.
 */
const { db } = localDeployment();
// Years ahead, as in recordings.test.ts: no TTL sweep with the real clock may empty the trash under the test.
const NOW = new Date('2036-02-01T00:00:00.000Z');
const deps = { db, now: () => NOW, trashRetentionDays: 30 };
const NO_RELATED = { transcript: false, summary: false, action_items: false, translation: false };
/** Few distinct moments, so many recordings share a created_at (the id then orders them). */
const MOMENTS = [
  '2036-01-10T09:00:00.000Z',
  '2036-01-10T09:00:00.001Z',
  '2036-01-11T00:00:00.000Z',
  '2036-01-11T23:59:59.999Z',
  '2036-01-12T12:00:00.000Z',
];

interface Drawn {
  moment: number;
  recorder: 0 | 1;
  tags: boolean[];
  deleted: boolean;
  /** Orders ties: ids are not created in list order. */
  idPart: string;
}

const drawnRecording = fc.record({
  moment: fc.integer({ min: 0, max: MOMENTS.length - 1 }),
  recorder: fc.constantFrom(0 as const, 1 as const),
  tags: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  deleted: fc.boolean(),
  idPart: fc.stringMatching(/^[a-z0-9]{1,3}$/),
});

/** An org with the drawn recordings, written through createRecording and softDeleteRecording. */
async function writeOrg(drawn: Drawn[]) {
  const id = unique();
  const orgId = `org_ddeep_${id}`;
  const recorders = [`usr_ddeep_a_${id}`, `usr_ddeep_b_${id}`];
  const tags = ['a', 'b', 'c'].map((name) => `tag_ddeep_${name}_${id}`);
  await seed(db, {
    orgs: [{ id: orgId, name: `Deep pages ${id}` }],
    users: recorders.map((userId, i) => ({ id: userId, email: `deep${i}.${id}@example.com`, display_name: `Recorder ${i}` })),
    memberships: recorders.map((userId) => ({ org_id: orgId, user_id: userId, role: 'member' as const })),
    tags: tags.map((tagId) => ({ id: tagId, org_id: orgId, user_id: recorders[0], name: tagId, color: '#123456' })),
  });
  const recordings: Recording[] = drawn.map((d, i) => ({
    id: `rec_${d.idPart}_${i}_${id}`,
    org_id: orgId,
    recorded_by: recorders[d.recorder],
    title: `Recording ${i}`,
    description: '',
    duration: 60,
    language: 'en',
    tags: tags.filter((_, t) => d.tags[t]),
    folder_id: null,
    state: 'ready',
    created_at: MOMENTS[d.moment],
    updated_at: MOMENTS[d.moment],
    recording_at: MOMENTS[d.moment],
    related: NO_RELATED,
  }));
  for (const recording of recordings) await createRecording(deps, recording);
  const trashed = new Set<string>();
  for (const [i, d] of drawn.entries()) {
    if (!d.deleted) continue;
    await softDeleteRecording(deps, orgId, recordings[i].id);
    trashed.add(recordings[i].id);
  }
  return { orgId, recorders, tags, recordings, trashed };
}
type WrittenOrg = Awaited<ReturnType<typeof writeOrg>>;

/** Every filter kind, each answered by a different source or total. */
function filtersOf({ orgId, recorders, tags }: WrittenOrg): Record<string, RecordingFilter> {
  const live: RecordingFilter = { orgId, bin: 'LIVE', tagMode: 'any' };
  const trash: RecordingFilter = { ...live, bin: 'TRASH' };
  return {
    'live (org counter)': live,
    'trash (org counter)': trash,
    'recorder (membership counter)': { ...live, recordedBy: recorders[0] },
    'recorder in the trash (COUNT)': { ...trash, recordedBy: recorders[1] },
    'day range (COUNT)': { ...live, from: '2036-01-10T09:00:00.001Z', to: '2036-01-11T23:59:59.999Z' },
    'one tag (tag links)': { ...live, tagIds: [tags[0]] },
    'two tags any (merged tag links)': { ...live, tagIds: [tags[0], tags[1]] },
    'three tags any with a range (merged, bounded)': { ...live, tagIds: tags, from: '2036-01-10T09:00:00.001Z' },
    'two tags all (filter expression)': { ...live, tagIds: [tags[1], tags[2]], tagMode: 'all' },
    'recorder and a tag (filter expression)': { ...live, tagIds: [tags[2]], recordedBy: recorders[1] },
    'trash under a tag (filter expression)': { ...trash, tagIds: [tags[0], tags[2]] },
  };
}

/** The list a filter must show, newest first by `<created_at>#<id>` (bytes), computed in memory. */
function expectedList({ recordings, trashed }: WrittenOrg, filter: RecordingFilter): string[] {
  const sortKey = (r: Recording) => `${r.created_at}#${r.id}`;
  return recordings
    .filter((r) => trashed.has(r.id) === (filter.bin === 'TRASH'))
    .filter((r) => (!filter.from || r.created_at >= filter.from) && (!filter.to || r.created_at <= filter.to))
    .filter((r) => !filter.recordedBy || r.recorded_by === filter.recordedBy)
    .filter((r) => {
      const wanted = filter.tagIds ?? [];
      if (!wanted.length) return true;
      return filter.tagMode === 'all' ? wanted.every((t) => r.tags.includes(t)) : wanted.some((t) => r.tags.includes(t));
    })
    .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0))
    .map((r) => r.id);
}

/** The answer the forward read gives (the algorithm before deep pages were read from the end). */
async function forwardAnswer(filter: RecordingFilter, page: number, limit: number, total: number) {
  const read = await readRecordingPage(db, filter, { offset: (page - 1) * limit, limit });
  return {
    ids: read.recordings.map((r) => r.id),
    page,
    limit,
    total,
    nextCursor: read.hasMore && read.lastSortKey ? recordingListCursor.encode({ after: read.lastSortKey, page: page + 1 }, filter) : null,
  };
}

/** The table with the input of every Query it sends recorded. */
function observedQueries() {
  const queries: QueryCommandInput[] = [];
  const client = new Proxy(db.client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: Parameters<typeof target.send>[0]) => {
        if (command instanceof QueryCommand) queries.push(command.input);
        return target.send(command);
      };
    },
  });
  return { table: { ...db, client }, queries };
}

describe('List recordings: deep page numbers read from the nearer end', () => {
  it('answers every page of every filter as the forward read and the list in memory do', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(drawnRecording, { minLength: 0, maxLength: 14 }), fc.integer({ min: 1, max: 4 }), async (drawn, limit) => {
        const org = await writeOrg(drawn);
        for (const [name, filter] of Object.entries(filtersOf(org))) {
          const expected = expectedList(org, filter);
          const pages = Math.ceil(expected.length / limit) + 1;
          for (let page = 1; page <= pages; page++) {
            const answer = await pageOfRecordings(db, { filter, page, limit });
            const got = {
              ids: answer.recordings.map((r) => r.id),
              page: answer.page,
              limit: answer.limit,
              total: answer.total,
              nextCursor: answer.nextCursor,
            };
            const where = `${name}, page ${page} of limit ${limit}`;
            expect({ where, ...got }).toEqual({ where, ...(await forwardAnswer(filter, page, limit, expected.length)) });
            expect({ where, ids: got.ids }).toEqual({ where, ids: expected.slice((page - 1) * limit, page * limit) });
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 300_000);

  it('follows a deep page by its next_cursor to the same page the next page number gives', async () => {
    const drawn: Drawn[] = Array.from({ length: 9 }, (_, i) => ({
      moment: i % 2,
      recorder: 0,
      tags: [true, i % 3 === 0, false],
      deleted: i === 4,
      idPart: `x${9 - i}`,
    }));
    const org = await writeOrg(drawn);
    const filter: RecordingFilter = { orgId: org.orgId, bin: 'LIVE', tagMode: 'any', tagIds: [org.tags[0], org.tags[1]] };
    // 8 live: pages 2 and 3 of limit 3 are in the later half (read from the end), page 4 is past the end.
    const second = await pageOfRecordings(db, { filter, page: 2, limit: 3 });
    expect(second.nextCursor).not.toBeNull();
    const byCursor = await pageOfRecordings(db, { filter, page: 1, limit: 3, cursor: second.nextCursor! });
    const { table, queries } = observedQueries();
    const byNumber = await pageOfRecordings(table, { filter, page: 3, limit: 3 });
    expect(byCursor.recordings.map((r) => r.id)).toEqual(byNumber.recordings.map((r) => r.id));
    expect(byNumber).toMatchObject({ page: 3, total: 8, nextCursor: null });
    expect(byNumber.recordings).toHaveLength(2);
    // The last page skips nothing: each tag's links are read oldest first, two entries a query at most (the
    // total, a merge of the links' keys, reads newest first as before).
    const pageQueries = queries.filter((q) => !q.ProjectionExpression);
    expect(pageQueries.length).toBeGreaterThanOrEqual(2);
    expect(pageQueries.map((q) => [q.ScanIndexForward, (q.Limit ?? Infinity) <= 2])).toEqual(pageQueries.map(() => [true, true]));
    expect(await pageOfRecordings(db, { filter, page: 4, limit: 3 })).toMatchObject({ recordings: [], total: 8, nextCursor: null });
  });
});
