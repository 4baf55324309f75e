import { TIMESTAMP } from '../../support/api';
import {
  buildRecordingsOrg,
  callers,
  getRec,
  INVALID,
  listed,
  nameOf,
  NOT_FOUND,
  type Org,
  seedRecordingsOrg,
  update,
  WRITERS,
} from '../../support/recordings';

/**
 * Update recording end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): what a PUT changes and answers, validation, and other organizations'
 * recordings, each rule with a test that fails when it breaks. The organizations and
 * helpers of the recordings suites: test/support/recordings.ts.
 */

describe('PUT /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  let org: Org;
  let other: Org;
  const UPDATED_FIELDS = ['description', 'duration', 'id', 'tags', 'title', 'updated_at'];

  beforeAll(async () => {
    org = buildRecordingsOrg('upd');
    other = buildRecordingsOrg('upd_other');
    const rec = (name: string, fields: Parameters<Org['rec']>[1] = {}) =>
      org.rec(name, {
        title: `Title ${name}`,
        description: `About ${name}`,
        duration: 90,
        created_at: '2026-02-10T10:00:00.000Z',
        tags: ['A', 'B'],
        ...fields,
      });
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
    expect(read.body).toMatchObject({
      title: 'Renamed',
      description: 'About title',
      tags: [org.tags.A.id, org.tags.B.id],
      created_at: '2026-02-10T10:00:00.000Z',
    });
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
    expect(res.body).toEqual({
      id: org.recId('all'),
      title: 'All',
      description: 'Everything',
      duration: 90,
      tags: [org.tags.C.id],
      updated_at: expect.stringMatching(TIMESTAMP),
    });
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
    expect((await getRec(org, org.recId('invalid'))).body).toMatchObject({
      title: 'Title invalid',
      description: 'About invalid',
      tags: [org.tags.A.id, org.tags.B.id],
    });
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
    expect((await listed(org, 'deleted=true')).recordings).toEqual([
      expect.objectContaining({ id: org.recId('trashed'), title: 'Title trashed' }),
    ]);
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
