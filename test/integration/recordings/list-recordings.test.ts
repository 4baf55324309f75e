import { failure, idTokenFor } from '../../support/api';
import {
  buildRecordingsOrg,
  callers,
  idsOf,
  INVALID,
  list,
  LIST_ITEM_FIELDS,
  listed,
  newestFirst,
  type Org,
  READERS,
  type RecordingInput,
  seedRecordingsOrg,
  timerOf,
  walkCursor,
  walkPages,
} from '../../support/recordings';

/**
 * List recordings end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): newest first, UTC days on created_at, tags, recorder, combined filters, the
 * trash (deleted=true), validation and cursors, each rule with a test that fails when
 * it breaks. The organizations and helpers of the recordings suites: test/support/recordings.ts.
 */

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
        org.rec('t2', {
          created_at: '2026-03-05T10:00:00.000Z',
          tags: ['C'],
          recorded_by: admin.id,
          deleted_at: '2026-03-14T00:00:00.000Z',
        }),
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
      const queries = [
        '',
        'date=2026-03-10',
        `tagIds=${A.id}`,
        `tagIds=${A.id},${B.id}&tagMode=all`,
        `recordedBy=${member.id}`,
        `recordedBy=${admin.id}&startDate=2026-03-05`,
      ];
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
      [
        'date + recorder + tags any',
        (o: Org) => `date=2026-03-10&recordedBy=${o.people.member.id}&tagIds=${o.tags.A.id},${o.tags.B.id}`,
        ['r4', 'r3'],
      ],
      [
        'range + recorder email + tags all',
        (o: Org) =>
          `startDate=2026-03-10&endDate=2026-03-11&recordedByEmail=${o.people.member.email}&tagIds=${o.tags.A.id},${o.tags.B.id}&tagMode=all`,
        ['r6'],
      ],
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
      // Loaded in the trash by a fixture, retention long run out: each has its timer, set by the seed a day ahead.
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
        {
          label: 'a date range',
          query: 'startDate=2026-01-02&endDate=2026-01-05',
          keep: (r: RecordingInput) => r.created_at! >= '2026-01-02' && r.created_at! < '2026-01-06',
          limit: 15,
        },
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

    it.each(['a recorder', 'a date range', 'tags any', 'tags all', 'recorder + range + tag'])(
      'cursor paging through %s matches page paging and the total',
      async (label) => {
        const { query, keep, limit } = walks().find((walk) => walk.label === label)!;
        const wanted = expected(keep);
        expect(wanted.length).toBeGreaterThan(limit); // several pages
        const { ids, pages } = await walkCursor(org, query, limit);
        expect(ids).toEqual(wanted);
        expect(pages).toEqual(Array.from({ length: Math.ceil(wanted.length / limit) }, (_, i) => i + 1));
        expect(await walkPages(org, query, limit)).toEqual(wanted);
        expect((await listed(org, query)).pagination.total).toBe(wanted.length);
      },
    );

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
