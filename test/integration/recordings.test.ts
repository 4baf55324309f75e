import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expireItems } from '../../infra/local/ttl-emulator';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { trashTimerFromItem, trashTimerItem } from '../../shared/storage/trash-timers';
import { call, failure, idTokenFor, listObjects, localDeployment, once, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { eventsInclude, publishedEvents } from '../support/events';
import { printedOutput } from '../support/local-deployment';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * The organization's recordings end to end: HTTP -> local API Gateway emulator ->
 * authorizer -> handler -> DynamoDB Local (and the S3 emulator for uploaded files).
 * List, Get, Update, Delete (soft and permanent) and Restore, each rule of issue 4 with a
 * test that fails when the rule breaks. Every test builds its own organization.
 */
const { runtime, db, dataDir } = localDeployment();

const INVALID = failure('VALIDATION_ERROR');
const NOT_FOUND = failure('RECORDING_NOT_FOUND');
const LIST_ITEM_FIELDS = ['created_at', 'duration', 'id', 'language', 'recorded_by', 'tags', 'title'];
const RELATED = ['transcript', 'summary', 'action_items', 'translation'];

// ---------------------------------------------------------------------------------------
// Organizations and their recordings

type RecordingInput = NonNullable<FixtureInput['recordings']>[number];

/**
 * An organization with one active member of each role, tags A, B and C, and org keys of
 * each scope set; `rec(name, ...)` builds a fixture recording with an id unique to it.
 */
function buildRecordingsOrg(label = 'rec') {
  const org = buildOrg({
    label,
    keys: {
      read: { scopes: ['recordings:read'] },
      write: { scopes: ['recordings:write'] },
      /** users:read too, for the members' counts */
      full: { scopes: ['recordings:read', 'recordings:write', 'users:read'] },
      users: { scopes: ['users:read'] },
      personal: { scopes: ['recordings:read', 'recordings:write'], user: 'admin' },
    },
    tags: { A: { name: 'Alpha', color: '#ff0000' }, B: { name: 'Bravo', color: '#00ff00' }, C: { name: 'Charlie', color: '#0000ff' } },
  });
  const rec = (name: string, fields: Partial<Omit<RecordingInput, 'tags'>> & { tags?: (keyof typeof org.tags)[] } = {}): RecordingInput => ({
    title: `Recording ${name}`,
    duration: 60,
    language: 'en',
    recorded_by: org.people.member.id,
    created_at: '2026-01-15T12:00:00.000Z',
    ...fields,
    id: org.recId(name),
    org_id: org.org,
    tags: (fields.tags ?? []).map((letter) => org.tags[letter].id),
  });
  return { ...org, rec };
}
type Org = ReturnType<typeof buildRecordingsOrg>;

/** Seeds an organization, then its recordings (one transaction each, in order). */
const seedRecordingsOrg = (org: Org, recordings: RecordingInput[] = []): Promise<Org> => seedOrg(org, { recordings });

// ---------------------------------------------------------------------------------------
// HTTP helpers

const base = (org: Org) => `/api/v1/organization/${org.org}/recordings`;
const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });
const list = (org: Org, query = '', token = org.keys.full) => send('GET', `${base(org)}${query ? `?${query}` : ''}`, token);
const getRec = (org: Org, recordingId: string, query = '', token = org.keys.full) => send('GET', `${base(org)}/${recordingId}${query ? `?${query}` : ''}`, token);
const update = (org: Org, recordingId: string, body: unknown, token = org.keys.full) => send('PUT', `${base(org)}/${recordingId}`, token, body);
const remove = (org: Org, recordingId: string, query = '', token = org.keys.full) => send('DELETE', `${base(org)}/${recordingId}${query ? `?${query}` : ''}`, token);
const restore = (org: Org, recordingId: string, token = org.keys.full) => send('POST', `${base(org)}/${recordingId}/restore`, token);

const idsOf = (res: ApiResponse) => (res.body.recordings as { id: string }[]).map((r) => r.id);

/** A list request that must succeed; returns the ids and the pagination. */
async function listed(org: Org, query = '', token = org.keys.full) {
  const res = await list(org, query, token);
  if (res.status !== 200) throw new Error(`GET recordings?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return { ids: idsOf(res), pagination: res.body.pagination, recordings: res.body.recordings as Record<string, unknown>[] };
}

/** Walks a list with keyset cursors; returns every id in order and the page numbers seen. */
async function walkCursor(org: Org, query: string, limit: number) {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listed>> = await listed(org, [query, `limit=${limit}`, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&'));
    ids.push(...page.ids);
    pages.push(page.pagination.page);
    expect(page.ids.length).toBeLessThanOrEqual(limit);
    cursor = page.pagination.next_cursor;
  } while (cursor && pages.length < 50);
  return { ids, pages };
}

/** Walks a list by page numbers until a short page. */
async function walkPages(org: Org, query: string, limit: number) {
  const ids: string[] = [];
  for (let page = 1; page < 50; page++) {
    const res = await listed(org, [query, `limit=${limit}`, `page=${page}`].filter(Boolean).join('&'));
    ids.push(...res.ids);
    if (res.ids.length < limit) break;
  }
  return ids;
}

/** Fixture recordings as the list must order them: created_at descending, then id descending. */
const newestFirst = (recordings: RecordingInput[]) =>
  [...recordings].sort((a, b) => `${b.created_at}#${b.id}`.localeCompare(`${a.created_at}#${a.id}`)).map((r) => r.id);

/** The member's counts as List users shows them. */
async function memberCounts(org: Org, userId = org.people.member.id) {
  const res = await send('GET', `/api/v1/organization/${org.org}/users?limit=100`, org.keys.full);
  expect(res.status).toBe(200);
  const member = (res.body.data as { user_id: string; recording_count: number; latest_recording_at: string | null }[]).find((m) => m.user_id === userId)!;
  return { recording_count: member.recording_count, latest_recording_at: member.latest_recording_at };
}

/** The org's live total, trash total, and the member's counts, at one moment. */
async function counts(org: Org) {
  const [live, trash, member] = await Promise.all([listed(org), listed(org, 'deleted=true'), memberCounts(org)]);
  return { live: live.pagination.total, trash: trash.pagination.total, member };
}

// ---------------------------------------------------------------------------------------
// Raw table access (what is left at rest)

async function queryAll(input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(new QueryCommand({ ...input, TableName: db.tableName, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * Every item of the table that belongs to a recording: the recording item and its
 * REC#<id>#... related items, its tag links under ORG#<org>#TAG#<tag>#RECS, and its
 * entries in the org's and the recorders' live and trash indexes.
 */
async function itemsOfRecording(org: Org, recordingId: string) {
  const sk = `REC#${recordingId}`;
  const own = (await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': `ORG#${org.org}`, ':sk': sk },
  })).filter((item) => item.SK === sk || (item.SK as string).startsWith(`${sk}#`));
  const links = (
    await Promise.all(
      Object.values(org.tags).map((tag) =>
        queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${org.org}#TAG#${tag.id}#RECS` } }),
      ),
    )
  )
    .flat()
    .filter((item) => item.recording_id === recordingId || (item.SK as string).endsWith(`#${recordingId}`));
  const indexed = (
    await Promise.all(
      ['LIVE', 'TRASH'].flatMap((bin) => [
        queryAll({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${org.org}#RECS#${bin}` } }),
        ...Object.values(org.people).map((person) =>
          queryAll({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${org.org}#USER#${person.id}#RECS#${bin}` } }),
        ),
      ]),
    )
  )
    .flat()
    .filter((item) => item.id === recordingId);
  return [...own, ...links, ...indexed].map((item) => `${item.PK} ${item.SK}`);
}

/**
 * What is left of a permanently deleted recording: the request takes the recording, its tag
 * links and index entries at once; its related items (REC#<id>#…) go shortly after, with the
 * object cleanup consumer. Returns the items left once that had its time (none).
 */
async function itemsLeftAfterCleanup(org: Org, recordingId: string) {
  const rightAfter = await itemsOfRecording(org, recordingId);
  expect(rightAfter.filter((key) => !key.startsWith(`ORG#${org.org} REC#${recordingId}#`))).toEqual([]);
  return eventually(() => itemsOfRecording(org, recordingId), (items) => items.length === 0);
}

/** A recording's trash timer as stored, or undefined. */
async function timerOf(org: Org, recordingId: string) {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.trashTimer(org.org, recordingId), ConsistentRead: true }));
  return Item && trashTimerFromItem(Item);
}

// ---------------------------------------------------------------------------------------
// Organizations several routes' blocks share

const OLD = '2026-04-01T10:00:00.000Z';
const NEW = '2026-04-02T10:00:00.000Z';

/** The member has an older and a newer recording; the admin one more. */
async function seededWithThreeRecordings() {
  const org = buildRecordingsOrg('del');
  await seedRecordingsOrg(org, [
    org.rec('old', { created_at: OLD, tags: ['A'] }),
    org.rec('new', {
      created_at: NEW,
      tags: ['A', 'B'],
      transcript: [{ speaker: 'Mo', text: 'Hello', start: 0, end: 1.5 }],
      summary: { markdown: '# Hi' },
      translation: { to_language: 'de', detected_language: 'en' },
      action_items: [{ text: 'Follow up' }],
    }),
    org.rec('admins', { created_at: '2026-04-03T10:00:00.000Z', recorded_by: org.people.admin.id }),
  ]);
  return org;
}
const publicIds = async (org: Org) => {
  const res = await send('GET', '/api/v1/public/recordings?limit=100', org.keys.full);
  expect(res.status).toBe(200);
  return { ids: (res.body.data as { id: string }[]).map((r) => r.id), total: res.body.pagination.total };
};

/** An organization to act in, and another whose recordings it must not reach. */
const unknownAndOther = once(async () => {
  const [org, other] = await Promise.all([seededWithThreeRecordings(), seededWithThreeRecordings()]);
  return { org, other };
});

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits, and an org
 * key with only the route's scope.
 */
const READERS = [
  ['a viewer’s ID token', (org: Org) => idTokenFor(org.people.viewer)],
  ['a key with recordings:read only', async (org: Org) => org.keys.read],
] as const;
const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with recordings:write only', async (org: Org) => org.keys.write],
] as const;

/** The name part of a writer's recordings. */
const nameOf = (caller: string) => caller.replace(/\W+/g, '_');

/** The organization of the callers blocks: a recording to read, and one per writer to update, delete and restore. */
const callers = once(async () => {
  const org = buildRecordingsOrg('callers');
  await seedRecordingsOrg(org, [
    org.rec('get', { summary: { markdown: 'x' } }),
    ...WRITERS.map(([caller]) => nameOf(caller)).flatMap((c) => [
      org.rec(`upd_${c}`, { title: 'Before' }),
      org.rec(`del_${c}`),
      org.rec(`res_${c}`, { deleted_at: '2026-01-16T00:00:00.000Z' }),
    ]),
  ]);
  return org;
});

/** Whether a recording of the callers' organization is live, as an unrestricted reader sees it. */
const isLive = async (org: Org, name: string) => (await getRec(org, org.recId(name), '', org.keys.full)).status === 200;

// ---------------------------------------------------------------------------------------

describe('GET /api/v1/organization/{orgId}/recordings', () => {
  let org: Org;
  let other: Org;
  const id = (name: string) => org.recId(name);
  const expectList = async (query: string, names: string[], total = names.length) => {
    const res = await listed(org, query);
    expect(res.ids).toEqual(names.map(id));
    expect(res.pagination.total).toBe(total);
  };

  beforeAll(async () => {
    org = buildRecordingsOrg('list');
    other = buildRecordingsOrg('list_other');
    const { admin, owner } = org.people;
    await Promise.all([
      seedRecordingsOrg(org, [
        org.rec('r1', { created_at: '2026-03-09T23:59:59.999Z', tags: ['A'] }),
        org.rec('r2', { created_at: '2026-03-10T00:00:00.000Z', tags: ['A', 'B'], recorded_by: admin.id }),
        // r3 and r4 share created_at: the id breaks the tie (descending).
        org.rec('r4', { created_at: '2026-03-10T12:00:00.000Z', tags: ['A', 'C'] }),
        org.rec('r3', { created_at: '2026-03-10T12:00:00.000Z', tags: ['B'] }),
        org.rec('r5', { created_at: '2026-03-10T23:59:59.999Z', recorded_by: admin.id }),
        org.rec('r6', { created_at: '2026-03-11T00:00:00.000Z', tags: ['A', 'B'] }),
        org.rec('r7', { created_at: '2026-03-12T08:00:00.000Z', tags: ['C'], recorded_by: owner.id, language: 'fr', duration: 12.5 }),
        org.rec('r8', { created_at: '2026-03-01T10:00:00.000Z', tags: ['B'] }),
        // In the trash: never listed nor counted, except with deleted=true.
        org.rec('t1', { created_at: '2026-03-10T10:00:00.000Z', tags: ['A', 'B'], deleted_at: '2026-03-13T00:00:00.000Z' }),
        org.rec('t2', { created_at: '2026-03-05T10:00:00.000Z', tags: ['C'], recorded_by: admin.id, deleted_at: '2026-03-14T00:00:00.000Z' }),
      ]),
      seedRecordingsOrg(other, [other.rec('x1', { created_at: '2026-03-10T09:00:00.000Z' })]),
    ]);
  });

  describe('results', () => {
    it('lists live recordings newest first (ties by id descending), with exactly the list fields', async () => {
      const res = await list(org);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['pagination', 'recordings']);
      expect(idsOf(res)).toEqual(['r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r8'].map(id));
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 8, next_cursor: null });
      expect(res.body.recordings[0]).toEqual({
        id: id('r7'),
        title: 'Recording r7',
        duration: 12.5,
        language: 'fr',
        recorded_by: org.people.owner.id,
        tags: [org.tags.C.id],
        created_at: '2026-03-12T08:00:00.000Z',
      });
      for (const item of res.body.recordings) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_FIELDS);
    });

    it('never lists nor counts soft-deleted recordings, whatever the filter', async () => {
      const trashed = [id('t1'), id('t2')];
      const { A, B } = org.tags;
      const { member, admin } = org.people;
      const queries = ['', 'date=2026-03-10', `tagIds=${A.id}`, `tagIds=${A.id},${B.id}&tagMode=all`, `recordedBy=${member.id}`, `recordedBy=${admin.id}&startDate=2026-03-05`];
      for (const query of queries) {
        const res = await listed(org, query);
        expect(res.ids.filter((x) => trashed.includes(x))).toEqual([]);
      }
      await expectList(`tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all&date=2026-03-10`, ['r2']);
      await expectList(`recordedBy=${org.people.admin.id}`, ['r5', 'r2']);
    });

    it('pages by number: limit, the last page, and a page past the end (empty, real total)', async () => {
      const first = await listed(org, 'limit=3');
      expect(first.ids).toEqual(['r7', 'r6', 'r5'].map(id));
      expect(first.pagination).toEqual({ page: 1, limit: 3, total: 8, next_cursor: expect.any(String) });
      const second = await listed(org, 'limit=3&page=2');
      expect(second.ids).toEqual(['r4', 'r3', 'r2'].map(id));
      expect(second.pagination).toEqual({ page: 2, limit: 3, total: 8, next_cursor: expect.any(String) });
      const last = await listed(org, 'limit=3&page=3');
      expect(last.ids).toEqual(['r1', 'r8'].map(id));
      expect(last.pagination).toEqual({ page: 3, limit: 3, total: 8, next_cursor: null });
      const past = await listed(org, 'limit=3&page=4');
      expect(past.ids).toEqual([]);
      expect(past.pagination).toEqual({ page: 4, limit: 3, total: 8, next_cursor: null });
      expect((await listed(org, 'limit=1')).ids).toEqual([id('r7')]);
      expect((await listed(org, 'limit=100')).pagination).toEqual({ page: 1, limit: 100, total: 8, next_cursor: null });
    });

    it('lists only its own organization', async () => {
      const res = await listed(other);
      expect(res.ids).toEqual([other.recId('x1')]);
      expect(res.pagination.total).toBe(1);
    });
  });

  describe('UTC days on created_at', () => {
    it.each([
      // A day runs from 00:00:00.000 to 23:59:59.999 UTC, both included.
      ['date=2026-03-10', ['r5', 'r4', 'r3', 'r2']],
      ['date=2026-03-09', ['r1']],
      ['date=2026-03-11', ['r6']],
      ['date=2026-03-13', []],
      ['startDate=2026-03-10&endDate=2026-03-10', ['r5', 'r4', 'r3', 'r2']],
      ['startDate=2026-03-10&endDate=2026-03-11', ['r6', 'r5', 'r4', 'r3', 'r2']],
      ['startDate=2026-03-09&endDate=2026-03-12', ['r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1']],
      // Open-ended ranges.
      ['startDate=2026-03-11', ['r7', 'r6']],
      ['endDate=2026-03-09', ['r1', 'r8']],
      ['endDate=2026-03-10', ['r5', 'r4', 'r3', 'r2', 'r1', 'r8']],
      ['startDate=2026-03-13', []],
    ])('%s', async (query, names) => {
      await expectList(query, names);
    });
  });

  describe('tags', () => {
    const tagQuery = (letters: ('A' | 'B' | 'C')[], mode?: string) =>
      `tagIds=${letters.map((l) => org.tags[l].id).join(',')}${mode ? `&tagMode=${mode}` : ''}`;

    it.each([
      [['A'], undefined, ['r6', 'r4', 'r2', 'r1']],
      [['A'], 'all', ['r6', 'r4', 'r2', 'r1']],
      [['C'], 'any', ['r7', 'r4']],
      // any is the default: the union, each recording once even when it has several of the tags.
      [['A', 'B'], undefined, ['r6', 'r4', 'r3', 'r2', 'r1', 'r8']],
      [['B', 'A'], 'any', ['r6', 'r4', 'r3', 'r2', 'r1', 'r8']],
      [['A', 'B', 'C'], 'any', ['r7', 'r6', 'r4', 'r3', 'r2', 'r1', 'r8']],
      // all: the intersection.
      [['A', 'B'], 'all', ['r6', 'r2']],
      [['B', 'A'], 'all', ['r6', 'r2']],
      [['A', 'C'], 'all', ['r4']],
      [['A', 'B', 'C'], 'all', []],
    ] as const)('tagIds=%j tagMode=%s', async (letters, mode, names) => {
      await expectList(tagQuery([...letters], mode), [...names]);
    });

    it('a tag nobody uses, or of another organization, matches nothing', async () => {
      await expectList(`tagIds=tag_unused_${org.id}`, []);
      await expectList(`tagIds=${other.tags.A.id}`, []);
    });

    it('pages through a union of tags without repeats', async () => {
      const query = tagQuery(['A', 'B']);
      const first = await listed(org, `${query}&limit=4`);
      expect(first.ids).toEqual(['r6', 'r4', 'r3', 'r2'].map(id));
      expect(first.pagination).toEqual({ page: 1, limit: 4, total: 6, next_cursor: expect.any(String) });
      const second = await listed(org, `${query}&limit=4&page=2`);
      expect(second.ids).toEqual(['r1', 'r8'].map(id));
      expect(second.pagination).toEqual({ page: 2, limit: 4, total: 6, next_cursor: null });
      const byCursor = await listed(org, `${query}&limit=4&cursor=${encodeURIComponent(first.pagination.next_cursor)}`);
      expect(byCursor.ids).toEqual(second.ids);
      expect(byCursor.pagination).toEqual(second.pagination);
    });
  });

  describe('recorder', () => {
    it('recordedBy lists one recorder’s recordings', async () => {
      await expectList(`recordedBy=${org.people.member.id}`, ['r6', 'r4', 'r3', 'r1', 'r8']);
      await expectList(`recordedBy=${org.people.admin.id}`, ['r5', 'r2']);
      await expectList(`recordedBy=${org.people.viewer.id}`, []);
      await expectList(`recordedBy=usr_nobody_${org.id}`, []);
    });

    it('recordedByEmail matches the recorder’s email case-insensitively', async () => {
      await expectList(`recordedByEmail=${encodeURIComponent(org.people.member.email.toUpperCase())}`, ['r6', 'r4', 'r3', 'r1', 'r8']);
      await expectList(`recordedByEmail=${encodeURIComponent(org.people.admin.email)}`, ['r5', 'r2']);
    });

    it('an email with no member gives an empty list, not an error', async () => {
      for (const email of [`nobody.${org.id}@example.com`, other.people.member.email]) {
        const res = await list(org, `recordedByEmail=${encodeURIComponent(email)}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ recordings: [], pagination: { page: 1, limit: 20, total: 0, next_cursor: null } });
      }
    });
  });

  describe('combined filters', () => {
    it.each([
      ['date + recorder', (o: Org) => `date=2026-03-10&recordedBy=${o.people.member.id}`, ['r4', 'r3']],
      ['date + tag', (o: Org) => `date=2026-03-10&tagIds=${o.tags.A.id}`, ['r4', 'r2']],
      ['date + recorder + tag', (o: Org) => `date=2026-03-10&recordedBy=${o.people.member.id}&tagIds=${o.tags.A.id}`, ['r4']],
      ['date + recorder + tags any', (o: Org) => `date=2026-03-10&recordedBy=${o.people.member.id}&tagIds=${o.tags.A.id},${o.tags.B.id}`, ['r4', 'r3']],
      ['range + recorder email + tags all', (o: Org) => `startDate=2026-03-10&endDate=2026-03-11&recordedByEmail=${o.people.member.email}&tagIds=${o.tags.A.id},${o.tags.B.id}&tagMode=all`, ['r6']],
      ['range + admin + tag', (o: Org) => `startDate=2026-03-01&recordedBy=${o.people.admin.id}&tagIds=${o.tags.B.id}`, ['r2']],
      ['open range + recorder', (o: Org) => `endDate=2026-03-10&recordedBy=${o.people.member.id}`, ['r4', 'r3', 'r1', 'r8']],
      ['date + other recorder + tag', (o: Org) => `date=2026-03-11&recordedBy=${o.people.admin.id}&tagIds=${o.tags.A.id}`, []],
    ])('%s', async (_label, query, names) => {
      await expectList(query(org), names);
    });

    it('pages a combined filter, with its own total', async () => {
      const query = `endDate=2026-03-10&recordedBy=${org.people.member.id}&limit=3`;
      const first = await listed(org, query);
      expect(first.ids).toEqual(['r4', 'r3', 'r1'].map(id));
      expect(first.pagination).toEqual({ page: 1, limit: 3, total: 4, next_cursor: expect.any(String) });
      const next = await listed(org, `${query}&cursor=${encodeURIComponent(first.pagination.next_cursor)}`);
      expect(next.ids).toEqual([id('r8')]);
      expect(next.pagination).toEqual({ page: 2, limit: 3, total: 4, next_cursor: null });
    });
  });

  describe('the trash (deleted=true)', () => {
    it('lists soft-deleted recordings only, newest first, with deleted_at and purge_at', async () => {
      const res = await list(org, 'deleted=true');
      expect(res.status).toBe(200);
      // Loaded in the trash by a fixture, retention long run out: each has its timer, set by the seed a day ahead (issue 26).
      const [t1Timer, t2Timer] = await Promise.all([timerOf(org, id('t1')), timerOf(org, id('t2'))]);
      expect(Date.parse(t1Timer!.purge_at) - Date.now()).toBeGreaterThan(86_400_000 - 10 * 60_000);
      expect(res.body).toEqual({
        recordings: [
          {
            id: id('t1'),
            title: 'Recording t1',
            duration: 60,
            language: 'en',
            recorded_by: org.people.member.id,
            tags: [org.tags.A.id, org.tags.B.id],
            created_at: '2026-03-10T10:00:00.000Z',
            deleted_at: '2026-03-13T00:00:00.000Z',
            purge_at: t1Timer!.purge_at,
          },
          {
            id: id('t2'),
            title: 'Recording t2',
            duration: 60,
            language: 'en',
            recorded_by: org.people.admin.id,
            tags: [org.tags.C.id],
            created_at: '2026-03-05T10:00:00.000Z',
            deleted_at: '2026-03-14T00:00:00.000Z',
            purge_at: t2Timer!.purge_at,
          },
        ],
        pagination: { page: 1, limit: 20, total: 2, next_cursor: null },
      });
      await expectList('deleted=false', ['r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r8']);
    });

    it('filters the trash like the live list', async () => {
      await expectList('deleted=true&date=2026-03-10', ['t1']);
      await expectList(`deleted=true&recordedBy=${org.people.admin.id}`, ['t2']);
      await expectList(`deleted=true&tagIds=${org.tags.C.id}`, ['t2']);
      await expectList(`deleted=true&tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all`, ['t1']);
    });

    it('admits admins, owners and org keys with recordings:write', async () => {
      for (const token of [await idTokenFor(org.people.admin), await idTokenFor(org.people.owner), org.keys.full]) {
        const res = await listed(org, 'deleted=true', token);
        expect(res.ids).toEqual([id('t1'), id('t2')]);
      }
    });

    it('refuses viewers and members (INSUFFICIENT_ROLE) and keys with only recordings:read (INSUFFICIENT_SCOPES)', async () => {
      for (const person of [org.people.viewer, org.people.member]) {
        const res = await list(org, 'deleted=true', await idTokenFor(person));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(failure('INSUFFICIENT_ROLE'));
      }
      const res = await list(org, 'deleted=true', org.keys.read);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(failure('INSUFFICIENT_SCOPES'));
    });
  });

  describe('validation (400 VALIDATION_ERROR)', () => {
    it.each([
      ['date with startDate', 'date=2026-03-10&startDate=2026-03-01'],
      ['date with endDate', 'date=2026-03-10&endDate=2026-03-11'],
      ['startDate after endDate', 'startDate=2026-03-11&endDate=2026-03-10'],
      ['a day that does not exist', 'date=2026-02-30'],
      ['an unpadded day', 'date=2026-1-01'],
      ['a word as a date', 'date=abc'],
      ['a timestamp as a date', 'date=2026-03-10T00:00:00Z'],
      ['a malformed startDate', 'startDate=2026-13-01'],
      ['a malformed endDate', 'endDate=20260310'],
      ['tagMode other than any or all', `tagMode=some&tagIds=tag_x`],
      ['recordedBy with recordedByEmail', 'recordedBy=usr_x&recordedByEmail=x@example.com'],
      ['a malformed recordedByEmail', 'recordedByEmail=not-an-email'],
      ['limit 0', 'limit=0'],
      ['limit 101', 'limit=101'],
      ['a non-integer limit', 'limit=2.5'],
      ['page 0', 'page=0'],
      ['deleted other than true or false', 'deleted=maybe'],
      ['an unknown parameter', 'sort=title'],
    ])('%s', async (_label, query) => {
      const res = await list(org, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
    });
  });

  describe('cursors through 250 recordings', () => {
    let org: Org;
    let other: Org;
    let all: RecordingInput[];

    beforeAll(async () => {
      org = buildRecordingsOrg('many');
      other = buildRecordingsOrg('many_other');
      const recorders = Object.values(org.people);
      // Pairs share a timestamp, and ids are scrambled against time, so the id tie-break shows.
      all = Array.from({ length: 250 }, (_, i) =>
        org.rec(`n${String((i * 37) % 250).padStart(3, '0')}`, {
          created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 3_600_000).toISOString(),
          recorded_by: recorders[i % 4].id,
          tags: [...(i % 3 === 0 ? (['A'] as const) : []), ...(i % 5 === 0 ? (['B'] as const) : [])],
        }),
      );
      await Promise.all([seedRecordingsOrg(org, all), seedRecordingsOrg(other)]);
    });

    const expected = (keep: (r: RecordingInput) => boolean = () => true) => newestFirst(all.filter(keep));

    it('limit defaults to 20', async () => {
      const res = await listed(org);
      expect(res.ids).toEqual(expected().slice(0, 20));
      expect(res.pagination).toEqual({ page: 1, limit: 20, total: 250, next_cursor: expect.any(String) });
    });

    it('limit 100, then 100, then 50: every recording exactly once, in the order of page paging', async () => {
      const first = await listed(org, 'limit=100');
      expect(first.ids).toHaveLength(100);
      expect(first.pagination).toEqual({ page: 1, limit: 100, total: 250, next_cursor: expect.any(String) });
      const second = await listed(org, `limit=100&cursor=${encodeURIComponent(first.pagination.next_cursor)}`);
      expect(second.ids).toHaveLength(100);
      expect(second.pagination).toEqual({ page: 2, limit: 100, total: 250, next_cursor: expect.any(String) });
      const third = await listed(org, `limit=100&cursor=${encodeURIComponent(second.pagination.next_cursor)}`);
      expect(third.ids).toHaveLength(50);
      expect(third.pagination).toEqual({ page: 3, limit: 100, total: 250, next_cursor: null });

      const byCursor = [...first.ids, ...second.ids, ...third.ids];
      expect(new Set(byCursor).size).toBe(250);
      expect(byCursor).toEqual(expected());
      expect(byCursor).toEqual(await walkPages(org, '', 100));
    });

    /** Filters to walk: the query, which fixture recordings it keeps, and a page size giving several pages. */
    const walks = () => {
      const { A, B } = org.tags;
      const { member, owner } = org.people;
      const has = (r: RecordingInput, tag: { id: string }) => r.tags!.includes(tag.id);
      return [
        { label: 'a recorder', query: `recordedBy=${member.id}`, keep: (r: RecordingInput) => r.recorded_by === member.id, limit: 17 },
        { label: 'a date range', query: 'startDate=2026-01-02&endDate=2026-01-05', keep: (r: RecordingInput) => r.created_at! >= '2026-01-02' && r.created_at! < '2026-01-06', limit: 15 },
        { label: 'tags any', query: `tagIds=${A.id},${B.id}`, keep: (r: RecordingInput) => has(r, A) || has(r, B), limit: 30 },
        { label: 'tags all', query: `tagIds=${A.id},${B.id}&tagMode=all`, keep: (r: RecordingInput) => has(r, A) && has(r, B), limit: 4 },
        {
          label: 'recorder + range + tag',
          query: `recordedBy=${owner.id}&startDate=2026-01-03&tagIds=${A.id}`,
          keep: (r: RecordingInput) => r.recorded_by === owner.id && r.created_at! >= '2026-01-03' && has(r, A),
          limit: 4,
        },
      ];
    };

    it.each(['a recorder', 'a date range', 'tags any', 'tags all', 'recorder + range + tag'])('cursor paging through %s matches page paging and the total', async (label) => {
      const { query, keep, limit } = walks().find((walk) => walk.label === label)!;
      const wanted = expected(keep);
      expect(wanted.length).toBeGreaterThan(limit); // several pages
      const { ids, pages } = await walkCursor(org, query, limit);
      expect(ids).toEqual(wanted);
      expect(pages).toEqual(Array.from({ length: Math.ceil(wanted.length / limit) }, (_, i) => i + 1));
      expect(await walkPages(org, query, limit)).toEqual(wanted);
      expect((await listed(org, query)).pagination.total).toBe(wanted.length);
    });

    it('rejects page with cursor, a cursor of another filter, list or organization, and a garbage cursor', async () => {
      const cursor = encodeURIComponent((await listed(org, 'limit=10')).pagination.next_cursor);
      const tagCursor = encodeURIComponent((await listed(org, `limit=10&tagIds=${org.tags.A.id},${org.tags.B.id}`)).pagination.next_cursor);
      expect((await list(org, `limit=10&cursor=${cursor}`)).status).toBe(200);
      for (const [query, target] of [
        [`cursor=${cursor}&page=2`, org],
        [`cursor=${cursor}&page=1`, org],
        [`cursor=${cursor}&recordedBy=${org.people.member.id}`, org],
        [`cursor=${cursor}&date=2026-01-02`, org],
        [`cursor=${cursor}&deleted=true`, org],
        [`cursor=${tagCursor}&tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all`, org],
        [`cursor=${tagCursor}&tagIds=${org.tags.A.id}`, org],
        [`cursor=${cursor}`, other],
        ['cursor=abc', org],
        [`cursor=${Buffer.from('{"a":"x"}').toString('base64url')}`, org],
        [`cursor=${'z'.repeat(2000)}`, org],
      ] as const) {
        const res = await list(target, query);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.body).toEqual(INVALID);
      }
    });
});

  describe('callers it admits', () => {
    it.each(READERS)('List with %s: the organization’s recordings', async (_caller, tokenOf) => {
      const org = await callers();
      const res = await list(org, '', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(idsOf(res)).toContain(org.recId('get'));
    });
  });
});

describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  let org: Org;
  let other: Org;
  const SEGMENTS = 3000;
  // Long texts, so the transcript is well over DynamoDB's 400 KB item limit.
  const transcript = Array.from({ length: SEGMENTS }, (_, i) => ({
    speaker: `Speaker ${(i % 3) + 1}`,
    text: `Segment ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}é ✓`,
    start: i * 2.5,
    end: i * 2.5 + 2.25,
  }));
  const summary = { markdown: '# Weekly sync\n\n- Ship the beta\n- Hire', template_id: 'tpl_weekly', template_name: 'Weekly' };
  const actionItems = [
    { id: 'act_deck', text: 'Send the deck', assignee: 'usr_assignee', due_date: '2026-02-05', completed: false },
    { text: 'Book the room', completed: true },
  ];
  const translation = { to_language: 'fr', detected_language: 'en' };

  beforeAll(async () => {
    org = buildRecordingsOrg('get');
    other = buildRecordingsOrg('get_other');
    await Promise.all([
      seedRecordingsOrg(org, [
        org.rec('full', {
          title: 'Board meeting',
          description: 'Quarterly numbers',
          duration: 7500,
          created_at: '2026-02-01T09:00:00.000Z',
          tags: ['A', 'C'],
          transcript,
          summary,
          action_items: actionItems,
          translation,
        }),
        org.rec('bare', { created_at: '2026-02-02T09:00:00.000Z', description: '' }),
        org.rec('trashed', { created_at: '2026-02-03T09:00:00.000Z', summary, deleted_at: '2026-02-04T00:00:00.000Z' }),
      ]),
      seedRecordingsOrg(other, [other.rec('theirs')]),
    ]);
  });

  it('without include: the recording and none of its related resources', async () => {
    const res = await getRec(org, org.recId('full'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: org.recId('full'),
      title: 'Board meeting',
      description: 'Quarterly numbers',
      duration: 7500,
      language: 'en',
      recorded_by: org.people.member.id,
      tags: [org.tags.A.id, org.tags.C.id],
      created_at: '2026-02-01T09:00:00.000Z',
    });
    for (const key of RELATED) expect(res.body).not.toHaveProperty(key);
  });

  it('include=transcript,summary,action_items,translation adds each one', async () => {
    const res = await getRec(org, org.recId('full'), 'include=transcript,summary,action_items,translation');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.recId('full'), title: 'Board meeting', description: 'Quarterly numbers' });
    expect(res.body.summary).toEqual({ ...summary, created_at: expect.stringMatching(TIMESTAMP), updated_at: expect.stringMatching(TIMESTAMP) });
    // Action items (docs/decisions.md): id, text, assignee, due_date, completed; an id is made up when none is given.
    expect(res.body.action_items).toEqual([
      actionItems[0],
      { id: expect.stringMatching(/^[A-Za-z0-9_-]+$/), text: 'Book the room', assignee: null, due_date: null, completed: true },
    ]);
    expect(res.body.translation).toEqual({
      id: expect.any(String),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      detected_language: 'en',
      to_language: 'fr',
      processing_status: expect.any(String),
      error_message: '',
    });
    // The whole transcript, every segment in order.
    expect(res.body.transcript).toHaveLength(SEGMENTS);
    expect(res.body.transcript).toEqual(transcript);
  });

  it('a long transcript is stored as several chunk items, each below the item size limit', async () => {
    const chunks = await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `ORG#${org.org}`, ':sk': `REC#${org.recId('full')}#TRANSCRIPT#` },
    });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(JSON.stringify(chunk))).toBeLessThan(400_000);
  });

  it('include adds only what it names', async () => {
    const res = await getRec(org, org.recId('full'), 'include=summary');
    expect(res.body.summary).toMatchObject({ markdown: summary.markdown });
    for (const key of ['transcript', 'action_items', 'translation']) expect(res.body).not.toHaveProperty(key);
    const two = await getRec(org, org.recId('full'), 'include=action_items,translation');
    expect(Object.keys(two.body).filter((key) => RELATED.includes(key)).sort()).toEqual(['action_items', 'translation']);
  });

  it('a related resource asked for but absent is null', async () => {
    const res = await getRec(org, org.recId('bare'), 'include=transcript,summary,action_items,translation');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.recId('bare'), transcript: null, summary: null, action_items: null, translation: null });
  });

  it.each(['include=foo', 'include=transcript,foo', 'include=Summary', 'expand=transcript'])('rejects %s with 400 VALIDATION_ERROR', async (query) => {
    const res = await getRec(org, org.recId('full'), query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
  });

  it('unknown, soft-deleted and other-organization recordings are 404 RECORDING_NOT_FOUND', async () => {
    for (const recordingId of [`rec_unknown_${org.id}`, org.recId('trashed'), other.recId('theirs')]) {
      for (const query of ['', 'include=summary']) {
        const res = await getRec(org, recordingId, query);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    }
    expect((await getRec(other, other.recId('theirs'))).status).toBe(200);
  });

  describe('callers it admits', () => {
    it.each(READERS)('Get with %s: the recording', async (_caller, tokenOf) => {
      const org = await callers();
      const res = await getRec(org, org.recId('get'), 'include=summary', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: org.recId('get'), summary: { markdown: 'x' } });
    });
  });
});

describe('PUT /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  let org: Org;
  let other: Org;
  const UPDATED_FIELDS = ['description', 'duration', 'id', 'tags', 'title', 'updated_at'];

  beforeAll(async () => {
    org = buildRecordingsOrg('upd');
    other = buildRecordingsOrg('upd_other');
    const rec = (name: string, fields: Parameters<Org['rec']>[1] = {}) =>
      org.rec(name, { title: `Title ${name}`, description: `About ${name}`, duration: 90, created_at: '2026-02-10T10:00:00.000Z', tags: ['A', 'B'], ...fields });
    await Promise.all([
      seedRecordingsOrg(org, [
        rec('title'),
        rec('desc'),
        rec('tags'),
        rec('clear'),
        rec('all'),
        rec('invalid'),
        rec('badtags'),
        rec('trashed', { deleted_at: '2026-02-11T00:00:00.000Z' }),
      ]),
      seedRecordingsOrg(other, [other.rec('theirs')]),
    ]);
  });

  it('changes the title alone; the response is exactly id, title, description, duration, tags, updated_at', async () => {
    const before = Date.now();
    const res = await update(org, org.recId('title'), { title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: org.recId('title'),
      title: 'Renamed',
      description: 'About title',
      duration: 90,
      tags: [org.tags.A.id, org.tags.B.id],
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(Object.keys(res.body).sort()).toEqual(UPDATED_FIELDS);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    const read = await getRec(org, org.recId('title'));
    expect(read.body).toMatchObject({ title: 'Renamed', description: 'About title', tags: [org.tags.A.id, org.tags.B.id], created_at: '2026-02-10T10:00:00.000Z' });
    expect((await listed(org, 'date=2026-02-10')).recordings.find((r) => r.id === org.recId('title'))).toMatchObject({ title: 'Renamed' });
  });

  it('changes the description alone (an empty one too)', async () => {
    const res = await update(org, org.recId('desc'), { description: 'New words' });
    expect(res.body).toMatchObject({ title: 'Title desc', description: 'New words' });
    expect((await getRec(org, org.recId('desc'))).body.description).toBe('New words');
    expect((await update(org, org.recId('desc'), { description: '' })).body.description).toBe('');
    expect((await getRec(org, org.recId('desc'))).body.description).toBe('');
  });

  it('tags replace the list, and the tag filter of List follows them', async () => {
    const target = org.recId('tags');
    const matches = async (query: string) => (await listed(org, query)).ids.includes(target);
    expect(await matches(`tagIds=${org.tags.A.id}`)).toBe(true);
    expect(await matches(`tagIds=${org.tags.C.id}`)).toBe(false);

    const res = await update(org, target, { tags: [org.tags.B.id, org.tags.C.id] });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual([org.tags.B.id, org.tags.C.id]);
    expect((await getRec(org, target)).body.tags).toEqual([org.tags.B.id, org.tags.C.id]);

    expect(await matches(`tagIds=${org.tags.A.id}`)).toBe(false); // the old tag no longer matches
    expect(await matches(`tagIds=${org.tags.C.id}`)).toBe(true); // the new one does
    expect(await matches(`tagIds=${org.tags.B.id}`)).toBe(true); // the kept one still does
    expect(await matches(`tagIds=${org.tags.B.id},${org.tags.C.id}&tagMode=all`)).toBe(true);
    expect(await matches(`tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all`)).toBe(false);
    expect(await matches(`tagIds=${org.tags.A.id},${org.tags.C.id}`)).toBe(true);
    // Totals follow too: C is on this recording only.
    expect((await listed(org, `tagIds=${org.tags.C.id}`)).pagination.total).toBe(1);
  });

  it('an empty tag list removes every tag', async () => {
    const target = org.recId('clear');
    const res = await update(org, target, { tags: [] });
    expect(res.body.tags).toEqual([]);
    for (const tag of Object.values(org.tags)) expect((await listed(org, `tagIds=${tag.id}`)).ids).not.toContain(target);
    expect((await listed(org, 'date=2026-02-10')).ids).toContain(target);
  });

  it('changes all three at once', async () => {
    const res = await update(org, org.recId('all'), { title: 'All', description: 'Everything', tags: [org.tags.C.id] });
    expect(res.body).toEqual({ id: org.recId('all'), title: 'All', description: 'Everything', duration: 90, tags: [org.tags.C.id], updated_at: expect.stringMatching(TIMESTAMP) });
  });

  it.each([
    ['an empty body', {}],
    ['no body', undefined],
    ['an unknown field', { title: 'x', duration: 5 }],
    ['only an unknown field', { color: 'red' }],
    ['an empty title', { title: '   ' }],
    ['a title that is not a string', { title: 42 }],
    ['tags that are not an array', { tags: 'tag_x' }],
    ['a repeated tag', { tags: ['tag_x', 'tag_x'] }],
    ['a body that is an array', [{ title: 'x' }]],
  ])('rejects %s with 400, changing nothing', async (_label, body) => {
    const res = await update(org, org.recId('invalid'), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
    expect((await getRec(org, org.recId('invalid'))).body).toMatchObject({ title: 'Title invalid', description: 'About invalid', tags: [org.tags.A.id, org.tags.B.id] });
  });

  it('a tag of another organization, or an unknown tag, is a 400 and nothing changes', async () => {
    const target = org.recId('badtags');
    for (const tags of [[other.tags.A.id], [org.tags.C.id, other.tags.B.id], [`tag_unknown_${org.id}`]]) {
      const res = await update(org, target, { title: 'Should not stick', tags });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
    }
    expect((await getRec(org, target)).body).toMatchObject({ title: 'Title badtags', tags: [org.tags.A.id, org.tags.B.id] });
    expect((await listed(org, `tagIds=${org.tags.C.id}`)).ids).not.toContain(target);
  });

  it('unknown, trashed and other-organization recordings are 404 RECORDING_NOT_FOUND', async () => {
    for (const recordingId of [`rec_unknown_${org.id}`, org.recId('trashed'), other.recId('theirs')]) {
      const res = await update(org, recordingId, { title: 'Nope' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await listed(org, 'deleted=true')).recordings).toEqual([expect.objectContaining({ id: org.recId('trashed'), title: 'Title trashed' })]);
    expect((await getRec(other, other.recId('theirs'))).body.title).toBe('Recording theirs');
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Update with %s: changed', async (caller, tokenOf) => {
      const org = await callers();
      const recordingId = org.recId(`upd_${nameOf(caller)}`);
      const res = await update(org, recordingId, { title: `By ${caller}` }, await tokenOf(org));
      expect(res.status).toBe(200);
      expect((await getRec(org, recordingId)).body.title).toBe(`By ${caller}`);
    });
  });
});

describe('DELETE /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  it('soft delete, restore, then permanent delete: reads and counts at every step', async () => {
    const org = await seededWithThreeRecordings();
    const [oldId, newId, adminsId] = ['old', 'new', 'admins'].map(org.recId);
    expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });

    // Soft delete: hidden from every read and count, data kept.
    const deleted = await remove(org, newId);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect(await counts(org)).toEqual({ live: 2, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });
    expect(await getRec(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await listed(org)).ids).toEqual([adminsId, oldId]);
    expect(await listed(org, `tagIds=${org.tags.A.id}`)).toMatchObject({ ids: [oldId], pagination: { total: 1 } });
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [], pagination: { total: 0 } });
    expect(await listed(org, `recordedBy=${org.people.member.id}`)).toMatchObject({ ids: [oldId], pagination: { total: 1 } });
    expect(await listed(org, 'date=2026-04-02')).toMatchObject({ ids: [], pagination: { total: 0 } });
    expect(await publicIds(org)).toEqual({ ids: [adminsId, oldId], total: 2 });
    const trash = await listed(org, 'deleted=true');
    expect(trash.recordings).toEqual([expect.objectContaining({ id: newId, deleted_at: expect.stringMatching(TIMESTAMP) })]);
    expect(Date.parse(trash.recordings[0].deleted_at as string)).toBeGreaterThan(Date.now() - 60_000);
    // When its timer runs out: the retention (30 days) after it was trashed.
    expect(trash.recordings[0].purge_at).toBe((await timerOf(org, newId))?.purge_at);
    expect(Date.parse(trash.recordings[0].purge_at as string) - Date.parse(trash.recordings[0].deleted_at as string)).toBe(30 * 86_400_000);
    expect(await itemsOfRecording(org, newId)).toEqual(expect.arrayContaining([`ORG#${org.org} REC#${newId}#SUMMARY`]));

    // Deleting it again, or restoring a live recording: 404.
    expect(await remove(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, oldId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, `rec_unknown_${org.id}`)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await counts(org)).toEqual({ live: 2, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });

    // Restore: back with its data, its tags and its counts.
    const restored = await restore(org, newId);
    expect(restored.status).toBe(200);
    // The restored recording's list item (docs/decisions.md).
    expect(restored.body).toEqual({
      id: newId,
      title: 'Recording new',
      duration: 60,
      language: 'en',
      recorded_by: org.people.member.id,
      tags: [org.tags.A.id, org.tags.B.id],
      created_at: NEW,
    });
    expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });
    const read = await getRec(org, newId, 'include=transcript,summary,action_items,translation');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      tags: [org.tags.A.id, org.tags.B.id],
      transcript: [{ speaker: 'Mo', text: 'Hello', start: 0, end: 1.5 }],
      summary: { markdown: '# Hi' },
      action_items: [expect.objectContaining({ text: 'Follow up' })],
      translation: expect.objectContaining({ to_language: 'de' }),
    });
    expect(read.body).not.toHaveProperty('deleted_at');
    expect((await listed(org)).ids).toEqual([adminsId, newId, oldId]);
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [newId], pagination: { total: 1 } });
    expect(await listed(org, `tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all`)).toMatchObject({ ids: [newId], pagination: { total: 1 } });
    expect(await publicIds(org)).toEqual({ ids: [adminsId, newId, oldId], total: 3 });
    expect(await restore(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });

    // Permanent delete of a live recording: nothing of it remains.
    expect((await itemsOfRecording(org, newId)).length).toBeGreaterThan(5); // the check sees what exists
    const gone = await remove(org, newId, 'permanent=true');
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect(await itemsLeftAfterCleanup(org, newId)).toEqual([]);
    expect(await counts(org)).toEqual({ live: 2, trash: 0, member: { recording_count: 1, latest_recording_at: OLD } });
    expect(await getRec(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await remove(org, newId, 'permanent=true')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [], pagination: { total: 0 } });

    // Emptying the trash: soft, then permanent.
    expect((await remove(org, oldId, 'permanent=false')).status).toBe(200);
    expect(await counts(org)).toEqual({ live: 1, trash: 1, member: { recording_count: 0, latest_recording_at: null } });
    expect(await timerOf(org, oldId)).toMatchObject({ deleted_at: expect.stringMatching(TIMESTAMP) });
    expect((await remove(org, oldId, 'permanent=true')).body).toEqual({ success: true });
    expect(await timerOf(org, oldId)).toBeUndefined();
    expect(await itemsLeftAfterCleanup(org, oldId)).toEqual([]);
    expect(await counts(org)).toEqual({ live: 1, trash: 0, member: { recording_count: 0, latest_recording_at: null } });
    expect((await listed(org, 'deleted=true')).ids).toEqual([]);
    expect((await listed(org)).ids).toEqual([adminsId]);
    expect(await memberCounts(org, org.people.admin.id)).toEqual({ recording_count: 1, latest_recording_at: '2026-04-03T10:00:00.000Z' });
  });

  it('latest_recording_at falls back to the previous recording, and moves forward again on restore', async () => {
    const org = await seededWithThreeRecordings();
    expect(await memberCounts(org)).toEqual({ recording_count: 2, latest_recording_at: NEW });
    await remove(org, org.recId('new'));
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: OLD });
    // With no live recording left, there is no latest.
    await remove(org, org.recId('old'));
    expect(await memberCounts(org)).toEqual({ recording_count: 0, latest_recording_at: null });
    await restore(org, org.recId('old'));
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: OLD });
    await restore(org, org.recId('new'));
    expect(await memberCounts(org)).toEqual({ recording_count: 2, latest_recording_at: NEW });
    // Removing the older one permanently keeps the latest.
    await remove(org, org.recId('old'), 'permanent=true');
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: NEW });
  });

  describe('permanent must be true or false', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededWithThreeRecordings();
    });

    it.each(['permanent=maybe', 'permanent=1', 'permanent=TRUE', 'permanent=', 'hard=true'])('rejects %s with 400 and deletes nothing', async (query) => {
      const res = await remove(org, org.recId('new'), query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
      expect((await getRec(org, org.recId('new'))).status).toBe(200);
      expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });
    });
  });

  describe('an uploaded recording', () => {
    /** Uploads a file through the public upload URL (the admin's personal key) and waits for `uploaded`. */
    async function upload(org: Org) {
      const created = await send('POST', '/api/v1/public/recordings/upload-url', org.keys.personal, { filename: 'call.mp3', content_type: 'audio/mpeg', size_bytes: 5 });
      expect(created.status).toBe(201);
      const { recording_id: recordingId, upload_url: url } = created.body.data;
      const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body: Buffer.from('hello') });
      expect(put.status).toBe(200);
      const state = await eventually(
        async () => ((await send('GET', '/api/v1/public/recordings?limit=100', org.keys.full)).body.data as { id: string; state: string }[]).find((r) => r.id === recordingId)?.state,
        (s) => s === 'uploaded',
      );
      expect(state).toBe('uploaded');
      const prefix = `recordings/${org.org}/${recordingId}/`;
      expect(await listObjects(prefix)).toEqual([{ key: expect.stringContaining(prefix), size: 5 }]);
      return { recordingId, prefix };
    }

    it('permanent delete removes its object from the bucket shortly after (object cleanup consumer), and every item', async () => {
      const org = await seededWithThreeRecordings();
      const { recordingId, prefix } = await upload(org);
      expect(await memberCounts(org, org.people.admin.id)).toMatchObject({ recording_count: 2 });
      // The request commits one transaction and calls no S3 (test/domain/recordings.test.ts counts its requests).
      expect((await remove(org, recordingId, 'permanent=true')).status).toBe(200);
      expect(await eventually(() => listObjects(prefix), (objects) => objects.length === 0)).toEqual([]);
      expect(await itemsLeftAfterCleanup(org, recordingId)).toEqual([]);
      const deleted = (await eventsInclude(org.org, ['recording.deleted'], recordingId)).filter((event) => event.type === 'recording.deleted');
      expect(deleted).toEqual([
        expect.objectContaining({ actor: { kind: 'api_key', id: expect.any(String) }, resource: { type: 'recording', id: recordingId }, data: { recorded_by: org.people.admin.id, reason: 'request' } }),
      ]);
      expect(await memberCounts(org, org.people.admin.id)).toEqual({ recording_count: 1, latest_recording_at: '2026-04-03T10:00:00.000Z' });
    });

    it('soft delete keeps the object; permanent delete from the trash removes it', async () => {
      const org = await seededWithThreeRecordings();
      const { recordingId, prefix } = await upload(org);
      expect((await remove(org, recordingId)).status).toBe(200);
      expect(await listObjects(prefix)).toHaveLength(1);
      expect((await remove(org, recordingId, 'permanent=true')).status).toBe(200);
      expect(await eventually(() => listObjects(prefix), (objects) => objects.length === 0)).toEqual([]);
      expect(await itemsLeftAfterCleanup(org, recordingId)).toEqual([]);
      expect(await counts(org)).toMatchObject({ live: 3, trash: 0 });
    });
  });

  describe('the trash retention (TRASH_RETENTION_DAYS, 30 in the local deployment)', () => {
    // Trashed in January, due 30 days later: long past by the real clock the consumer reads.
    const DELETED_AT = '2026-01-16T00:00:00.000Z';
    const PURGE_AT = '2026-02-15T00:00:00.000Z';

    /** The three recordings, and one of the member's in the trash since DELETED_AT with parts and a tag (a fixture's: the seed set its timer a day ahead, the retention having run out long ago). */
    async function withExpiredTrash() {
      const org = buildRecordingsOrg('ret');
      await seedRecordingsOrg(org, [
        org.rec('old', { created_at: OLD, tags: ['A'] }),
        org.rec('expired', { created_at: '2026-01-10T10:00:00.000Z', tags: ['A'], deleted_at: DELETED_AT, summary: { markdown: 'old notes' }, transcript: [{ speaker: 'Mo', text: 'Hi', start: 0, end: 1 }] }),
      ]);
      return org;
    }
    const setTimer = (org: Org, recordingId: string) =>
      db.client.send(new PutCommand({ TableName: db.tableName, Item: trashTimerItem({ org_id: org.org, recording_id: recordingId, deleted_at: DELETED_AT, purge_at: PURGE_AT }) }));
    /** DynamoDB's TTL sweep over this organization's items, at `now` (the local TTL emulator). */
    const sweep = (org: Org, now = new Date()) => expireItems(db, { now, orgId: org.org });
    /** Past the day a timer set by the seed waits. */
    const afterGrace = () => new Date(Date.now() + 86_400_000 + 60_000);
    /** The trash retention consumer's log lines for one recording (the local deployment logs at INFO). */
    const retentionRuns = (recordingId: string) =>
      printedOutput(dataDir)
        .split('\n')
        .filter((line) => line.includes('"trash retention ran"') && line.includes(`"recording_id":"${recordingId}"`))
        .map((line) => (JSON.parse(line) as { outcome: string }).outcome);

    it('deletes a recording whose time in the trash ran out, as a permanent delete does, by no actor and for retention', async () => {
      const org = await withExpiredTrash();
      const expired = org.recId('expired');
      expect(await counts(org)).toEqual({ live: 1, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });
      expect(await sweep(org)).toBe(0);
      expect(await sweep(org, afterGrace())).toBe(1);

      expect(await eventually(() => itemsOfRecording(org, expired), (items) => items.length === 0)).toEqual([]);
      expect(await counts(org)).toEqual({ live: 1, trash: 0, member: { recording_count: 1, latest_recording_at: OLD } });
      expect((await listed(org, 'deleted=true')).ids).toEqual([]);
      expect(await getRec(org, expired)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await listed(org, `tagIds=${org.tags.A.id}`)).toMatchObject({ ids: [org.recId('old')], pagination: { total: 1 } });
      const deleted = publishedEvents(org.org).filter((event) => event.type === 'recording.deleted');
      expect(deleted).toEqual([
        expect.objectContaining({ actor: null, resource: { type: 'recording', id: expired }, data: { recorded_by: org.people.member.id, reason: 'retention' } }),
      ]);
    });

    it('a restore racing the timer wins: the recording stays, with its counts', async () => {
      const org = await withExpiredTrash();
      const expired = org.recId('expired');
      expect((await restore(org, expired)).status).toBe(200);
      expect(await timerOf(org, expired)).toBeUndefined();
      // The timer's removal by TTL was already under way when the restore committed.
      await setTimer(org, expired);
      expect(await sweep(org)).toBe(1);

      expect(await eventually(async () => retentionRuns(expired), (outcomes) => outcomes.length > 0)).toEqual(['not_in_trash']);
      expect(await getRec(org, expired)).toMatchObject({ status: 200, body: { id: expired } });
      expect(await counts(org)).toEqual({ live: 2, trash: 0, member: { recording_count: 2, latest_recording_at: OLD } });
      expect(publishedEvents(org.org).filter((event) => event.type === 'recording.deleted')).toEqual([]);
    });

    it('a timer that goes before the retention ran out deletes nothing, and is set again', async () => {
      const org = await seededWithThreeRecordings();
      const recordingId = org.recId('old');
      expect((await remove(org, recordingId)).status).toBe(200);
      const timer = await timerOf(org, recordingId);
      expect(Date.parse(timer!.purge_at) - Date.parse(timer!.deleted_at)).toBe(30 * 86_400_000);
      // A sweep a month ahead removes the timer; the consumer, on the real clock, finds it not due.
      expect(await sweep(org, new Date(Date.now() + 31 * 86_400_000))).toBe(1);

      expect(await eventually(async () => retentionRuns(recordingId), (outcomes) => outcomes.length > 0)).toEqual(['not_due']);
      expect(await timerOf(org, recordingId)).toEqual(timer);
      expect((await listed(org, 'deleted=true')).ids).toEqual([recordingId]);
      expect(await counts(org)).toMatchObject({ live: 2, trash: 1 });
    });
  });

  it('unknown and other-organization recordings are 404 on delete (soft and permanent)', async () => {
    const { org, other } = await unknownAndOther();
    for (const recordingId of [`rec_unknown_${org.id}`, other.recId('new')]) {
      for (const query of ['', 'permanent=true']) expect(await remove(org, recordingId, query)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await getRec(other, other.recId('new'))).status).toBe(200);
    expect((await counts(other)).live).toBe(3);
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Delete with %s: in the trash', async (caller, tokenOf) => {
      const org = await callers();
      const res = await remove(org, org.recId(`del_${nameOf(caller)}`), '', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await isLive(org, `del_${nameOf(caller)}`)).toBe(false);
    });
  });
});

describe('POST /api/v1/organization/{orgId}/recordings/{recordingId}/restore', () => {
  it('unknown and other-organization recordings are 404', async () => {
    const { org, other } = await unknownAndOther();
    for (const recordingId of [`rec_unknown_${org.id}`, other.recId('new')]) {
      expect(await restore(org, recordingId)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await getRec(other, other.recId('new'))).status).toBe(200);
    expect((await counts(other)).live).toBe(3);
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Restore with %s: live again', async (caller, tokenOf) => {
      const org = await callers();
      const res = await restore(org, org.recId(`res_${nameOf(caller)}`), await tokenOf(org));
      expect(res.status).toBe(200);
      expect(await isLive(org, `res_${nameOf(caller)}`)).toBe(true);
    });
  });
});
