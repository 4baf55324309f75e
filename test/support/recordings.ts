import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { trashTimerFromItem } from '../../shared/storage/trash-timers';
import { call, failure, idTokenFor, localDeployment, once, type ApiResponse } from './api';
import { eventually } from './eventually';
import { buildOrg, noAutoTranscription, seedOrg } from './org-builder';

/**
 * What the suites of the organization's recordings routes (test/integration/recordings/) share:
 * the organizations they build (one active member of each role, tags A, B and C, org keys of
 * each scope set), their HTTP helpers, the raw table reads of what is left at rest, and the
 * organizations several routes' blocks use (each suite builds its own: once() is per file).
 */

export const { runtime, db, dataDir } = localDeployment();

export const INVALID = failure('VALIDATION_ERROR');
export const NOT_FOUND = failure('RECORDING_NOT_FOUND');
export const LIST_ITEM_FIELDS = ['created_at', 'duration', 'id', 'language', 'recorded_by', 'tags', 'title'];
export const RELATED = ['transcript', 'summary', 'action_items', 'translation'];

// ---------------------------------------------------------------------------------------
// Organizations and their recordings

export type RecordingInput = NonNullable<FixtureInput['recordings']>[number];

/**
 * An organization with one active member of each role, tags A, B and C, and org keys of
 * each scope set; `rec(name, ...)` builds a fixture recording with an id unique to it.
 */
export function buildRecordingsOrg(label = 'rec') {
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
  const rec = (
    name: string,
    fields: Partial<Omit<RecordingInput, 'tags'>> & { tags?: (keyof typeof org.tags)[] } = {},
  ): RecordingInput => ({
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
export type Org = ReturnType<typeof buildRecordingsOrg>;

/** Seeds an organization (its people's uploads are not transcribed on their own), then its recordings (one transaction each, in order). */
export const seedRecordingsOrg = (org: Org, recordings: RecordingInput[] = []): Promise<Org> =>
  seedOrg(org, { recordings, ...noAutoTranscription(org) });

// ---------------------------------------------------------------------------------------
// HTTP helpers

export const base = (org: Org) => `/api/v1/organization/${org.org}/recordings`;
export const send = (method: string, path: string, token?: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });
export const list = (org: Org, query = '', token = org.keys.full) => send('GET', `${base(org)}${query ? `?${query}` : ''}`, token);
export const getRec = (org: Org, recordingId: string, query = '', token = org.keys.full) =>
  send('GET', `${base(org)}/${recordingId}${query ? `?${query}` : ''}`, token);
export const update = (org: Org, recordingId: string, body: unknown, token = org.keys.full) =>
  send('PUT', `${base(org)}/${recordingId}`, token, body);
export const remove = (org: Org, recordingId: string, query = '', token = org.keys.full) =>
  send('DELETE', `${base(org)}/${recordingId}${query ? `?${query}` : ''}`, token);
export const restore = (org: Org, recordingId: string, token = org.keys.full) => send('POST', `${base(org)}/${recordingId}/restore`, token);

export const idsOf = (res: ApiResponse) => (res.body.recordings as { id: string }[]).map((r) => r.id);

/** A list request that must succeed; returns the ids and the pagination. */
export async function listed(org: Org, query = '', token = org.keys.full) {
  const res = await list(org, query, token);
  if (res.status !== 200) throw new Error(`GET recordings?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return { ids: idsOf(res), pagination: res.body.pagination, recordings: res.body.recordings as Record<string, unknown>[] };
}

/** Walks a list with keyset cursors; returns every id in order and the page numbers seen. */
export async function walkCursor(org: Org, query: string, limit: number) {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listed>> = await listed(
      org,
      [query, `limit=${limit}`, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&'),
    );
    ids.push(...page.ids);
    pages.push(page.pagination.page);
    expect(page.ids.length).toBeLessThanOrEqual(limit);
    cursor = page.pagination.next_cursor;
  } while (cursor && pages.length < 50);
  return { ids, pages };
}

/** Walks a list by page numbers until a short page. */
export async function walkPages(org: Org, query: string, limit: number) {
  const ids: string[] = [];
  for (let page = 1; page < 50; page++) {
    const res = await listed(org, [query, `limit=${limit}`, `page=${page}`].filter(Boolean).join('&'));
    ids.push(...res.ids);
    if (res.ids.length < limit) break;
  }
  return ids;
}

/** Fixture recordings as the list must order them: created_at descending, then id descending. */
export const newestFirst = (recordings: RecordingInput[]) =>
  [...recordings].sort((a, b) => `${b.created_at}#${b.id}`.localeCompare(`${a.created_at}#${a.id}`)).map((r) => r.id);

/** The member's counts as List users shows them. */
export async function memberCounts(org: Org, userId = org.people.member.id) {
  const res = await send('GET', `/api/v1/organization/${org.org}/users?limit=100`, org.keys.full);
  expect(res.status).toBe(200);
  const member = (res.body.data as { user_id: string; recording_count: number; latest_recording_at: string | null }[]).find(
    (m) => m.user_id === userId,
  )!;
  return { recording_count: member.recording_count, latest_recording_at: member.latest_recording_at };
}

/** The org's live total, trash total, and the member's counts, at one moment. */
export async function counts(org: Org) {
  const [live, trash, member] = await Promise.all([listed(org), listed(org, 'deleted=true'), memberCounts(org)]);
  return { live: live.pagination.total, trash: trash.pagination.total, member };
}

// ---------------------------------------------------------------------------------------
// Raw table access (what is left at rest)

export async function queryAll(input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) {
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
export async function itemsOfRecording(org: Org, recordingId: string) {
  const sk = `REC#${recordingId}`;
  const own = (
    await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `ORG#${org.org}`, ':sk': sk },
    })
  ).filter((item) => item.SK === sk || (item.SK as string).startsWith(`${sk}#`));
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
        queryAll({
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': `ORG#${org.org}#RECS#${bin}` },
        }),
        ...Object.values(org.people).map((person) =>
          queryAll({
            IndexName: 'GSI2',
            KeyConditionExpression: 'GSI2PK = :pk',
            ExpressionAttributeValues: { ':pk': `ORG#${org.org}#USER#${person.id}#RECS#${bin}` },
          }),
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
export async function itemsLeftAfterCleanup(org: Org, recordingId: string) {
  const rightAfter = await itemsOfRecording(org, recordingId);
  expect(rightAfter.filter((key) => !key.startsWith(`ORG#${org.org} REC#${recordingId}#`))).toEqual([]);
  return eventually(
    () => itemsOfRecording(org, recordingId),
    (items) => items.length === 0,
  );
}

/** A recording's trash timer as stored, or undefined. */
export async function timerOf(org: Org, recordingId: string) {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.trashTimer(org.org, recordingId), ConsistentRead: true }),
  );
  return Item && trashTimerFromItem(Item);
}

// ---------------------------------------------------------------------------------------
// Organizations several routes' blocks share

export const OLD = '2026-04-01T10:00:00.000Z';
export const NEW = '2026-04-02T10:00:00.000Z';

/** The member has an older and a newer recording; the admin one more. */
export async function seededWithThreeRecordings() {
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
export const publicIds = async (org: Org) => {
  const res = await send('GET', '/api/v1/public/recordings?limit=100', org.keys.full);
  expect(res.status).toBe(200);
  return { ids: (res.body.data as { id: string }[]).map((r) => r.id), total: res.body.pagination.total };
};

/** An organization to act in, and another whose recordings it must not reach. */
export const unknownAndOther = once(async () => {
  const [org, other] = await Promise.all([seededWithThreeRecordings(), seededWithThreeRecordings()]);
  return { org, other };
});

/**
 * Who may call each route, and what everyone else is answered, is the access matrix's
 * (test/integration/access-matrix.test.ts, generated from the manifest). Here, each kind of
 * caller a route admits gets its answer: an ID token of the lowest role it admits, and an org
 * key with only the route's scope.
 */
export const READERS = [
  ['a viewer’s ID token', (org: Org) => idTokenFor(org.people.viewer)],
  ['a key with recordings:read only', async (org: Org) => org.keys.read],
] as const;
export const WRITERS = [
  ['an admin’s ID token', (org: Org) => idTokenFor(org.people.admin)],
  ['a key with recordings:write only', async (org: Org) => org.keys.write],
] as const;

/** The name part of a writer's recordings. */
export const nameOf = (caller: string) => caller.replace(/\W+/g, '_');

/** The organization of the callers blocks: a recording to read, and one per writer to update, delete and restore. */
export const callers = once(async () => {
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
export const isLive = async (org: Org, name: string) => (await getRec(org, org.recId(name), '', org.keys.full)).status === 200;

// ---------------------------------------------------------------------------------------
