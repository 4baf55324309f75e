import { call, expectFailure, localDeployment, once } from '../../support/api';
import { eventually } from '../../support/eventually';
import { runCli } from '../../support/cli';
import { openSearchIndexOf } from '../../../shared/search/search-client';
import { buildOrg, seedOrg } from '../../support/org-builder';

/**
 * Search on both hosts, end to end on the local deployment: recordings loaded by a fixture are
 * indexed by the indexer consumer from the stream's events; words in any inflection, quoted
 * phrases, highlights and times, the filters, the cursor, the trash and a restore, a permanent
 * delete, two organizations sharing words, a personal key's own recordings, and the refusals.
 * Who may call it: the access matrix.
 */
const { runtime, dataDir } = localDeployment();
const cli = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: dataDir });

const SAID = [
  { speaker: 'Speaker 1', text: 'Good morning everyone.', start: 0.5, end: 2 },
  { speaker: 'Speaker 2', text: 'The budget for the new office is Approved.', start: 2.5, end: 5.25 },
];

const orgOf = (label: string) =>
  buildOrg({
    label,
    keys: {
      reader: { scopes: ['recordings:read', 'recordings:write'] },
      member: { scopes: ['recordings:read'], user: 'member' },
    },
  });

const setup = once(async () => {
  const [one, two] = [orgOf('sra'), orgOf('srb')];
  const recording = (org: typeof one, name: string, fields: Record<string, unknown> = {}) => ({
    id: org.recId(name),
    org_id: org.org,
    recorded_by: org.people.member.id,
    title: `Weekly review ${name}`,
    duration: 6,
    language: 'en-US',
    created_at: '2026-11-16T09:05:00.000Z',
    transcript: SAID,
    ...fields,
  });
  await seedOrg(one, {
    recordings: [
      recording(one, 'a'),
      recording(one, 'b', { created_at: '2026-11-20T09:05:00.000Z' }),
      recording(one, 'admins', { recorded_by: one.people.admin.id, title: 'Hiring plan', transcript: [SAID[1]] }),
    ],
  });
  await seedOrg(two, { recordings: [recording(two, 'x')] });
  return { one, two };
});

const search = (orgId: string, key: string, query: string) =>
  call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/search?${query}`, { token: key });
const searchPublic = (key: string, query: string) => call(runtime.apiUrl, 'GET', `/api/v1/public/search?${query}`, { token: key });
const idsOf = (body: { results: { recording_id: string }[] }) => body.results.map((result) => result.recording_id).sort();
const indexed = async (orgId: string, key: string, query: string, count: number) =>
  (
    await eventually(
      () => search(orgId, key, query),
      (res) => res.status === 200 && res.body.results.length === count,
    )
  ).body;

describe('Search', () => {
  it("finds a word in another inflection, with the matched word's offsets and the seconds it was said", async () => {
    const { one } = await setup();
    const body = await indexed(one.org, one.keys.reader, 'q=approve&in=transcript', 3);
    expect(idsOf(body)).toEqual([one.recId('a'), one.recId('admins'), one.recId('b')].sort());
    const match = body.results[0].matches[0];
    expect(match).toMatchObject({ field: 'transcript', start_time: 2.5, end_time: 5.25, speaker: 'Speaker 2' });
    expect(match.text.slice(match.highlights[0][0], match.highlights[0][1])).toBe('Approved');
  });

  it("never answers another organization's recordings, whatever the query", async () => {
    const { one, two } = await setup();
    const body = await indexed(two.org, two.keys.reader, 'q=budget', 1);
    expect(idsOf(body)).toEqual([two.recId('x')]);
    expect(JSON.stringify(body)).not.toContain(one.org);
    expect((await search(two.org, one.keys.reader, 'q=budget')).status).toBe(403);
  });

  it('matches a quoted phrase as written, and not its words apart', async () => {
    const { one } = await setup();
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    expect((await search(one.org, one.keys.reader, `q=${encodeURIComponent('"new office"')}`)).body.results).toHaveLength(3);
    expect((await search(one.org, one.keys.reader, `q=${encodeURIComponent('"office new"')}`)).body.results).toHaveLength(0);
  });

  it('filters by recorder, by day and by field', async () => {
    const { one } = await setup();
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    expect(idsOf((await search(one.org, one.keys.reader, `q=budget&recorded_by=${one.people.admin.id}`)).body)).toEqual([
      one.recId('admins'),
    ]);
    expect(idsOf((await search(one.org, one.keys.reader, 'q=budget&from=2026-11-18')).body)).toEqual([one.recId('b')]);
    expect(idsOf((await search(one.org, one.keys.reader, 'q=budget&to=2026-11-16&in=transcript')).body)).toEqual(
      [one.recId('a'), one.recId('admins')].sort(),
    );
    expect(idsOf((await search(one.org, one.keys.reader, 'q=hiring&in=title')).body)).toEqual([one.recId('admins')]);
    expect((await search(one.org, one.keys.reader, 'q=hiring&in=transcript')).body.results).toEqual([]);
  });

  it('pages through the recordings with the cursor', async () => {
    const { one } = await setup();
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await search(one.org, one.keys.reader, `q=approve&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...idsOf(page.body));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([one.recId('a'), one.recId('admins'), one.recId('b')].sort());
  });

  it("lets a personal key find its member's own recordings only, in the envelope", async () => {
    const { one } = await setup();
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    const res = await searchPublic(one.keys.member, 'q=approve');
    expect(res.body.success).toBe(true);
    expect(idsOf(res.body.data)).toEqual([one.recId('a'), one.recId('b')].sort());
  });

  it('loses a recording moved to the trash, finds it again once restored, and never after a permanent delete', async () => {
    const { one } = await setup();
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    const path = `/api/v1/organization/${one.org}/recordings/${one.recId('b')}`;
    expect((await call(runtime.apiUrl, 'DELETE', path, { token: one.keys.reader })).status).toBe(200);
    await indexed(one.org, one.keys.reader, 'q=approve', 2);
    expect((await call(runtime.apiUrl, 'POST', `${path}/restore`, { token: one.keys.reader })).status).toBe(200);
    await indexed(one.org, one.keys.reader, 'q=approve', 3);
    expect((await call(runtime.apiUrl, 'DELETE', `${path}?permanent=true`, { token: one.keys.reader })).status).toBe(200);
    await indexed(one.org, one.keys.reader, 'q=approve', 2);
  });

  it.each([
    ['an empty q', 'q='],
    ['a q over 500 characters', `q=${'a'.repeat(501)}`],
    ['an unknown mode', 'q=budget&mode=fuzzy'],
    ['an unknown field', 'q=budget&in=transcript,notes'],
  ])('refuses %s with 400 INVALID_QUERY', async (_name, query) => {
    const { one } = await setup();
    expectFailure(await search(one.org, one.keys.reader, query), 400, 'INVALID_QUERY');
  });

  it('refuses semantic search without an embedding model (409), and answers hybrid with keywords', async () => {
    const { one } = await setup();
    expectFailure(await search(one.org, one.keys.reader, 'q=budget&mode=semantic'), 409, 'SEMANTIC_SEARCH_UNAVAILABLE');
    expect((await search(one.org, one.keys.reader, 'q=budget&mode=hybrid')).status).toBe(200);
  });

  it("rebuilds an organization's passages with `search reindex` after the index lost them", async () => {
    const { two } = await setup();
    await indexed(two.org, two.keys.reader, 'q=budget', 1);
    // The stand-in's index loses the recording's passages, as after a lost collection.
    await openSearchIndexOf({ endpoint: runtime.searchEndpoint as string, signing: 'none', region: 'us-east-1' }).removeRecording(
      two.org,
      two.recId('x'),
    );
    expect((await search(two.org, two.keys.reader, 'q=budget')).body.results).toEqual([]);
    const rebuilt = await cli('search', 'reindex', '--org', two.org);
    expect(rebuilt.json).toEqual({ org_id: two.org, recordings: 1, indexed: 1, removed: 0, passages: 3 });
    expect(idsOf((await search(two.org, two.keys.reader, 'q=budget')).body)).toEqual([two.recId('x')]);
  });
});
