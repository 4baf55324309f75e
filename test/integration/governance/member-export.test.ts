import { generateApiKey } from '../../../shared/auth/api-key-secrets';
import { call, expectFailure, idTokenFor, localDeployment, once, seed, type ApiResponse } from '../../support/api';
import { eventually } from '../../support/eventually';
import { jsonFile, seedExportWorld, unzip, type ExportWorld } from '../../support/member-exports';

/**
 * Create member export and Get member export end to end on the local deployment: the request
 * (202, queued), the export consumer writing the ZIP, the download URL, what each kind of
 * caller gets, the 404s and 400s, and an export that holds what the API shows for the person
 * (settings, recordings with transcript, summaries and translations, audit entries, keys).
 * Who may call the routes in general: the access matrix.
 */
const { runtime, db } = localDeployment();

interface World extends ExportWorld {
  tokens: Record<'owner' | 'admin' | 'member' | 'other', string>;
  writeKey: string;
  readKey: string;
  personalKey: string;
}

const setup = once(async (): Promise<World> => {
  const personalKey = generateApiKey('user_key');
  const world = await seedExportWorld(db, { recordings: 2, media: true, personalKey });
  const writeKey = generateApiKey('org_key');
  const readKey = generateApiKey('org_key');
  await seed(db, {
    api_keys: [
      { org_id: world.orgId, key: writeKey, scopes: ['governance:write', 'recordings:write', 'recordings:read'] },
      { org_id: world.orgId, key: readKey, scopes: ['governance:read', 'users:read', 'recordings:read', 'audit:read'] },
    ],
  });
  const tokens = {
    owner: await idTokenFor(world.owner),
    admin: await idTokenFor(world.admin),
    member: await idTokenFor(world.member),
    other: await idTokenFor(world.other),
  };
  return { ...world, tokens, writeKey, readKey, personalKey };
});

const exportsPath = (w: World, userId: string) => `/api/v1/organization/${w.orgId}/users/${userId}/exports`;
const post = (w: World, token: string, userId: string, body: unknown = {}) =>
  call(runtime.apiUrl, 'POST', exportsPath(w, userId), { token, body });
const get = (w: World, token: string, userId: string, exportId: string) =>
  call(runtime.apiUrl, 'GET', `${exportsPath(w, userId)}/${exportId}`, { token });

/** Reads an export until it is finished. */
async function finished(w: World, token: string, userId: string, exportId: string): Promise<ApiResponse> {
  return eventually(
    () => get(w, token, userId, exportId),
    (res) => res.status === 200 && ['completed', 'failed'].includes(res.body.data.status),
  );
}

async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('createMemberExport', () => {
  it('queues an export (202) that the consumer completes; its download URL fetches the ZIP, reissued on each read', async () => {
    const w = await setup();
    const res = await post(w, w.tokens.owner, w.member.id, { include_media: true });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      object: 'member_export',
      status: 'queued',
      user_id: w.member.id,
      include_media: true,
      download_url: null,
    });
    const done = await finished(w, w.tokens.owner, w.member.id, res.body.data.id);
    expect(done.body.data).toMatchObject({
      status: 'completed',
      counts: { recordings: 2, media_files: 2, assigned_action_items: 1, api_keys: 1 },
    });
    const url = String(done.body.data.download_url);
    const zip = await download(url);
    expect(zip.length).toBe(done.body.data.size_bytes);
    expect(Date.parse(done.body.data.download_url_expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(Date.parse(done.body.data.expires_at) - Date.parse(done.body.data.completed_at)).toBe(7 * 86_400_000);
    const files = unzip(zip);
    expect(files.get(`recordings/${w.recordingIds[0]}/media/call-0.m4a`)).toEqual(w.media);
    expect(jsonFile(files, 'settings.json').profile.profile).toBe(w.profile);

    // Signed at each read (to the second: two reads in one second give the same URL).
    const again = await get(w, w.tokens.owner, w.member.id, res.body.data.id);
    expect(Date.parse(again.body.data.download_url_expires_at)).toBeGreaterThanOrEqual(Date.parse(done.body.data.download_url_expires_at));
    expect(await download(String(again.body.data.download_url))).toEqual(zip);
  });

  describe('callers it admits', () => {
    it.each([
      ['an admin', 'admin'],
      ['the member themselves (a member)', 'member'],
    ] as const)('%s', async (_label, who) => {
      const w = await setup();
      const res = await post(w, w.tokens[who], w.member.id);
      expect(res.status).toBe(202);
      expect((await get(w, w.tokens[who], w.member.id, res.body.data.id)).status).toBe(200);
    });

    it('an organization key with governance:write', async () => {
      const w = await setup();
      const res = await post(w, w.writeKey, w.member.id);
      expect(res.body.data).toMatchObject({ status: 'queued' });
      expect((await get(w, w.writeKey, w.member.id, res.body.data.id)).status).toBe(200);
    });
  });

  it("refuses another member's data to a member, a key with governance:read only, and personal keys", async () => {
    const w = await setup();
    expectFailure(await post(w, w.tokens.other, w.member.id), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await post(w, w.readKey, w.member.id), 403, 'INSUFFICIENT_SCOPES');
    expectFailure(await post(w, w.personalKey, w.member.id), 403, 'USER_KEY_NOT_ALLOWED');
    const own = await post(w, w.tokens.member, w.member.id);
    expectFailure(await get(w, w.tokens.other, w.member.id, own.body.data.id), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await get(w, w.readKey, w.member.id, own.body.data.id), 403, 'INSUFFICIENT_SCOPES');
  });

  it('answers 404 for a person who is not a member, an unknown export, and an export asked for under another member', async () => {
    const w = await setup();
    expectFailure(await post(w, w.tokens.owner, 'usr_not_a_member'), 404, 'MEMBER_NOT_FOUND');
    expectFailure(await get(w, w.tokens.owner, w.member.id, 'exp_unknown'), 404, 'EXPORT_NOT_FOUND');
    const res = await post(w, w.tokens.owner, w.member.id);
    expectFailure(await get(w, w.tokens.owner, w.other.id, res.body.data.id), 404, 'EXPORT_NOT_FOUND');
  });

  it('refuses an invalid body or export id with 400', async () => {
    const w = await setup();
    expectFailure(await post(w, w.tokens.owner, w.member.id, { include_media: 'yes' }), 400, 'VALIDATION_ERROR');
    expectFailure(await post(w, w.tokens.owner, w.member.id, { include_audio: true }), 400, 'VALIDATION_ERROR');
    expectFailure(await get(w, w.tokens.owner, w.member.id, 'exp%20bad%21'), 400, 'VALIDATION_ERROR');
  });
});

describe('an export holds what the API shows for the person', () => {
  it('settings, recordings with transcript, summaries and translations, audit entries, API keys', async () => {
    const w = await setup();
    const api = (path: string, token = w.tokens.owner) => call(runtime.apiUrl, 'GET', `/api/v1/organization/${w.orgId}${path}`, { token });
    const [live] = w.recordingIds;
    // Something the member did, for the audit log (asking for their own export); a translation of their recording.
    const own = await post(w, w.tokens.member, w.member.id);
    expect(own.status).toBe(202);
    const translating = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${w.orgId}/recordings/${live}/translations`, {
      token: w.writeKey,
      body: { to_language: 'es' },
    });
    expect(translating.status).toBe(202);
    await eventually(
      () => api(`/recordings/${live}?include=translation`),
      (res) => ['completed', 'failed'].includes(res.body.translation?.processing_status),
    );
    const audit = (await eventually(
      () => api(`/audit-log?actor_id=${w.member.id}&limit=100`, w.readKey),
      (res) => res.body.entries?.some((entry: { type: string }) => entry.type === 'user.export_requested'),
    )) as ApiResponse;

    const started = await post(w, w.tokens.owner, w.member.id);
    const done = await finished(w, w.tokens.owner, w.member.id, started.body.data.id);
    const files = unzip(await download(String(done.body.data.download_url)));

    const settings = await api(`/users/${w.member.id}/settings?include=profile,preferences,tags,notifications`, w.readKey);
    const { preferences, ...bundle } = settings.body.data;
    expect(jsonFile(files, 'settings.json')).toEqual(bundle);
    expect(jsonFile(files, 'preferences.json')).toEqual(preferences.data);

    const recording = await api(`/recordings/${live}?include=transcript,summary,action_items,translation,speakers`, w.readKey);
    expect(jsonFile(files, `recordings/${live}/recording.json`)).toEqual(recording.body);
    const summaries = await api(`/recordings/${live}/summaries`, w.readKey);
    expect(jsonFile(files, `recordings/${live}/summaries.json`)).toEqual(summaries.body);
    const translated = await api(`/recordings/${live}/transcript?format=json&language=es`, w.readKey);
    if (translated.status === 200) expect(jsonFile(files, `recordings/${live}/translations/es.json`).transcript).toEqual(translated.body);

    // Every entry the log held when the export ran is in it, as the log shows it.
    const exported: { id: string }[] = jsonFile(files, 'audit-log.json');
    expect(audit.body.entries.length).toBeGreaterThan(0);
    for (const entry of audit.body.entries) expect(exported).toContainEqual(entry);

    const keys = await api(`/api-keys?user_id=${w.member.id}`);
    expect(jsonFile(files, 'api-keys.json')).toEqual(keys.body.api_keys);
    expect(jsonFile(files, 'user.json').user).toEqual(expect.objectContaining({ user_id: w.member.id, email: w.member.email }));
  });
});
