import fc from 'fast-check';
import { dayBounds, pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { type RecordingFilter } from '../../shared/storage/recording-index';
import { readRecordingPage } from '../../shared/storage/recording-pages';
import type { Recording } from '../../shared/storage/recording-items';
import { observeRequests, type ObservedRequest } from '../support/observe-requests';
import { localDeployment, seed, unique } from '../support/api';

/**
 * A page number of List recordings reads from the day that holds it (the day and month
 * counts say which), so it skips only entries of that one day, whatever its depth. Generated
 * organizations (created_at spread over three months, many on one day, ties, some recordings
 * in the trash) written through createRecording and softDeleteRecording (which keep the
 * counts), the live list and the trash, with and without whole-day ranges, random page
 * numbers and limits (past the end too): every answer must be the slice of the list read
 * whole, its total, and a next_cursor that leads to the next slice; and the recordings index
 * entries read for a page past the first must be the page and at most a page (from the nearer
 * end) or one day's entries skipped.
 */
const { db } = localDeployment();
// Years ahead, as in recordings.test.ts: no TTL sweep with the real clock may empty the trash under the test.
const NOW = new Date('2036-03-01T00:00:00.000Z');
const deps = { db, now: () => NOW, trashRetentionDays: 30 };
const FIRST_DAY = Date.parse('2035-12-15T00:00:00.000Z');
const DAYS = 70;
/** The day many recordings fall on. */
const HOT_DAY = 20;
const DAY_MS = 86_400_000;
const dayText = (index: number) => new Date(FIRST_DAY + index * DAY_MS).toISOString().slice(0, 10);

const drawnRecording = fc.record({
  day: fc.oneof({ arbitrary: fc.constant(HOT_DAY), weight: 1 }, { arbitrary: fc.integer({ min: 0, max: DAYS - 1 }), weight: 4 }),
  ms: fc.oneof(fc.constantFrom(0, DAY_MS - 1), fc.integer({ min: 0, max: DAY_MS - 1 })),
  /** Shares the previous recording's created_at (the id then orders them). */
  tie: fc.boolean(),
  deleted: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
  idPart: fc.stringMatching(/^[a-z0-9]{1,3}$/),
});

const drawnDay = fc.option(fc.integer({ min: -2, max: DAYS + 1 }), { nil: undefined });
const drawnQuery = fc.record({
  trash: fc.boolean(),
  range: fc.option(fc.tuple(drawnDay, drawnDay), { nil: undefined, freq: 2 }),
  limit: fc.integer({ min: 1, max: 6 }),
  /** Where the page falls in the list, in hundredths of its pages (past the end included): unbiased, as deep pages are the point. */
  depth: fc.noBias(fc.integer({ min: 0, max: 120 })),
});

type Drawn = typeof drawnRecording extends fc.Arbitrary<infer T> ? T : never;

async function writeOrg(drawn: Drawn[]) {
  const id = unique();
  const orgId = `org_dpages_${id}`;
  const recorder = `usr_dpages_${id}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Page numbers ${id}` }],
    users: [{ id: recorder, email: `pages.${id}@example.com`, display_name: 'Recorder' }],
    memberships: [{ org_id: orgId, user_id: recorder, role: 'member' }],
  });
  const recordings: Recording[] = [];
  for (const [i, d] of drawn.entries()) {
    const createdAt = d.tie && i > 0 ? recordings[i - 1].created_at : new Date(FIRST_DAY + d.day * DAY_MS + d.ms).toISOString();
    const recording: Recording = {
      id: `rec_${d.idPart}_${i}_${id}`,
      org_id: orgId,
      recorded_by: recorder,
      title: `Recording ${i}`,
      description: '',
      duration: 60,
      language: 'en',
      tags: [],
      folder_id: null,
      state: 'ready',
      created_at: createdAt,
      updated_at: createdAt,
      recording_at: createdAt,
      related: { transcript: false, summary: false, action_items: false, translation: false },
    };
    await createRecording(deps, recording);
    recordings.push(recording);
  }
  const trashed = new Set<string>();
  for (const [i, d] of drawn.entries()) {
    if (!d.deleted) continue;
    await softDeleteRecording(deps, orgId, recordings[i].id);
    trashed.add(recordings[i].id);
  }
  return { orgId, recordings, trashed };
}

/** The list a filter shows, newest first by `<created_at>#<id>` (bytes), from the recordings written. */
function expectedList({ recordings, trashed }: Awaited<ReturnType<typeof writeOrg>>, filter: RecordingFilter): Recording[] {
  const sortKey = (r: Recording) => `${r.created_at}#${r.id}`;
  return recordings
    .filter((r) => trashed.has(r.id) === (filter.bin === 'TRASH'))
    .filter((r) => (!filter.from || r.created_at >= filter.from) && (!filter.to || r.created_at <= filter.to))
    .sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0));
}

/**
 * The entries a page may skip, from the list's nearer end: up to a page of them, or else
 * only those of the day where the page starts (its first entry's, or from the older end its
 * last entry's) that lie beyond it.
 */
function allowedSkip(list: Recording[], page: number, limit: number): number {
  const offset = (page - 1) * limit;
  if (offset >= list.length) return 0;
  const fromEnd = list.length - offset - Math.min(limit, list.length - offset);
  if (Math.min(offset, fromEnd) <= limit) return Math.min(offset, fromEnd);
  const day = (index: number) => list[index].created_at.slice(0, 10);
  const edge = fromEnd >= offset ? offset : list.length - 1 - fromEnd;
  const beyond = fromEnd >= offset ? list.slice(0, offset) : list.slice(edge + 1);
  return beyond.filter((r) => r.created_at.slice(0, 10) === day(edge)).length;
}

/** A call with the requests it sent. */
async function observed<T>(call: () => Promise<T>): Promise<{ answer: T; requests: ObservedRequest[] }> {
  const requests: ObservedRequest[] = [];
  observeRequests(db, 'recording-page-numbers-test', (request) => requests.push(request));
  try {
    return { answer: await call(), requests };
  } finally {
    db.client.middlewareStack.remove('recording-page-numbers-test');
  }
}

describe('List recordings: a page number reads from the day that holds it', () => {
  it('answers the slice of the list read whole, reading besides the page at most a page or one day of entries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.array(drawnRecording, { minLength: 20, maxLength: 40 })),
        fc.array(drawnQuery, { minLength: 10, maxLength: 14 }),
        async (drawn, queries) => {
          const org = await writeOrg(drawn);
          for (const query of queries) {
            const [start, end] = (query.range ?? []).map((day) => (day === undefined ? undefined : dayText(day)));
            const bounds =
              start && end && start > end ? dayBounds({ startDate: end, endDate: start }) : dayBounds({ startDate: start, endDate: end });
            const filter: RecordingFilter = { orgId: org.orgId, bin: query.trash ? 'TRASH' : 'LIVE', tagMode: 'any', ...bounds };
            const expected = expectedList(org, filter);
            // The read of the whole list is the list computed in memory.
            const whole = await readRecordingPage(db, filter, { offset: 0, limit: 10_000 });
            expect(whole.recordings.map((r) => r.id)).toEqual(expected.map((r) => r.id));

            const { limit } = query;
            const page = 1 + Math.floor((query.depth / 100) * Math.ceil(expected.length / limit));
            const where = `${JSON.stringify({ ...filter, orgId: undefined })}, page ${page} of limit ${limit}, ${expected.length} listed`;
            const { answer, requests } = await observed(() => pageOfRecordings(db, { filter, page, limit }));
            const slice = expected.slice((page - 1) * limit, page * limit);
            const more = expected.length > page * limit;
            expect({ where, ids: answer.recordings.map((r) => r.id), total: answer.total, more: answer.nextCursor !== null }).toEqual({
              where,
              ids: slice.map((r) => r.id),
              total: expected.length,
              more,
            });
            if (answer.nextCursor) {
              const next = await pageOfRecordings(db, { filter, page: 1, limit, cursor: answer.nextCursor });
              expect({ where, next: next.recordings.map((r) => r.id) }).toEqual({
                where,
                next: expected.slice(page * limit, (page + 1) * limit).map((r) => r.id),
              });
            }
            // Entries of the recordings index (GSI1) read: the page, one more, and up to a page skipped or only those of
            // the page's first day before it (from the newer end), or of its last day after it (from the older end).
            const indexRead = requests
              .filter((r) => r.command === 'Query' && r.input.IndexName === 'GSI1')
              .reduce((sum, r) => sum + r.itemsRead, 0);
            const bound = allowedSkip(expected, page, limit) + limit + 1;
            if (indexRead > bound) throw new Error(`${where}: read ${indexRead} recordings index entries, at most ${bound} expected`);
          }
        },
      ),
      { numRuns: 6, endOnFailure: true },
    );
  }, 120_000);
});
