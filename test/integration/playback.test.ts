import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { call, failure, idTokenFor, localDeployment, once, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { buildOrg, noAutoTranscription, seedOrg } from '../support/org-builder';

/**
 * Playback end to end: Get recording media on the organization host and the public
 * host. A real file goes up through Create upload URL into the S3 emulator, its completion
 * event marks it uploaded, and the media URL the API answers is fetched from the emulator: the
 * bytes, the content type and the content disposition are what a browser would get.
 */
const { runtime, db } = localDeployment();

const NOT_FOUND = failure('RECORDING_NOT_FOUND');
const NOT_UPLOADED = failure('RECORDING_NOT_UPLOADED');
const UPLOAD_URL = '/api/v1/public/recordings/upload-url';
const TTL_MS = 900_000;

function buildPlaybackOrg(label: string) {
  return buildOrg({
    label,
    keys: {
      orgRead: { scopes: ['recordings:read'] },
      /** for the trash: admin routes */
      orgAll: { scopes: ['recordings:read', 'recordings:write'] },
      member: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
      admin: { scopes: ['recordings:read', 'recordings:write'], user: 'admin' },
      viewer: { scopes: ['recordings:read'], user: 'viewer' },
    },
  });
}
type Org = ReturnType<typeof buildPlaybackOrg>;

const send = (method: string, path: string, token: string) => call(runtime.apiUrl, method, path, { token });
const orgMedia = (org: Org, recordingId: string, token: string, query = '') =>
  send('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}/media${query}`, token);
const publicMedia = (recordingId: string, token: string, query = '') =>
  send('GET', `/api/v1/public/recordings/${recordingId}/media${query}`, token);

/**
 * Uploads `bytes` as a client does (Create upload URL with the member's key, then the PUT) and
 * waits for the completion event to settle the recording (uploaded, or failed when `sentBytes`
 * differ from the declared ones).
 */
async function upload(org: Org, filename: string, bytes: Buffer, options: { contentType?: string; sentBytes?: Buffer } = {}) {
  const contentType = options.contentType ?? 'audio/mp4';
  const created = await call(runtime.apiUrl, 'POST', UPLOAD_URL, {
    token: org.keys.member,
    body: { filename, content_type: contentType, size_bytes: bytes.length },
  });
  expect(created.status).toBe(201);
  const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
  const sent = options.sentBytes ?? bytes;
  // The S3 emulator does not check the signed content-length: a client that sends other bytes lands them (the completion refuses them).
  const put = await fetch(url, { method: 'PUT', headers: { ...headers, 'content-length': String(sent.length) }, body: sent });
  expect(put.status).toBe(200);
  const settled = await eventually(
    () => send('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgRead),
    (res) => res.body?.state !== 'pending_upload',
  );
  expect(settled.body.state).toBe(options.sentBytes ? 'failed' : 'uploaded');
  return recordingId as string;
}

/** A recording whose upload URL was issued and never used. */
async function pendingUpload(org: Org) {
  const created = await call(runtime.apiUrl, 'POST', UPLOAD_URL, {
    token: org.keys.member,
    body: { filename: 'later.m4a', content_type: 'audio/mp4', size_bytes: 10 },
  });
  expect(created.status).toBe(201);
  return created.body.data.recording_id as string;
}

/** Every item of the organization's partition (what a request could have written). */
const partition = async (org: Org) =>
  (
    await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `ORG#${org.org}` },
        ConsistentRead: true,
      }),
    )
  ).Items;

/** The media answer's fields, checked: a URL of the emulator's bucket for this recording's object, expiring 15 minutes after the request. */
function expectMedia(media: Record<string, unknown>, org: Org, recordingId: string, window: { sentAt: number; receivedAt: number }) {
  expect(media).toEqual({
    url: expect.any(String),
    expires_at: expect.stringMatching(TIMESTAMP),
    content_type: 'audio/mp4',
    size_bytes: expect.any(Number),
  });
  const url = new URL(media.url as string);
  expect(url.origin).toBe(new URL(runtime.s3Endpoint).origin);
  expect(decodeURIComponent(url.pathname)).toMatch(new RegExp(`^/${runtime.bucketName}/recordings/${org.org}/${recordingId}/[^/]+$`));
  expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  expect(Date.parse(media.expires_at as string)).toBeGreaterThanOrEqual(window.sentAt + TTL_MS - 1000);
  expect(Date.parse(media.expires_at as string)).toBeLessThanOrEqual(window.receivedAt + TTL_MS + 1000);
}

/** Sends one request and notes when it left and when it came back. */
async function timed(request: () => Promise<ApiResponse>) {
  const sentAt = Date.now();
  const res = await request();
  return { res, window: { sentAt, receivedAt: Date.now() } };
}

/** Everything the tests of this file play: uploaded once, read by every block. */
const world = once(async () => {
  const [built, builtOther] = [buildPlaybackOrg('play'), buildPlaybackOrg('play_other')];
  const org = await seedOrg(built, noAutoTranscription(built));
  const other = await seedOrg(builtOther, noAutoTranscription(builtOther));
  const bytes = randomBytes(64 * 1024);
  const played = await upload(org, "Réunion d'équipe.m4a", bytes);
  const otherRecording = await upload(other, 'theirs.m4a', randomBytes(100));
  return { org, other, bytes, played, otherRecording };
});

// ---------------------------------------------------------------------------------------

describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}/media', () => {
  it('answers a pre-signed GET of the uploaded file: the emulator serves the same bytes, with the type and the original name to play inline', async () => {
    const { org, bytes, played } = await world();
    const { res, window } = await timed(() => orgMedia(org, played, org.keys.orgRead));
    expect(res.status).toBe(200);
    // The recordings routes answer without the envelope.
    expect(Object.keys(res.body).sort()).toEqual(['content_type', 'expires_at', 'size_bytes', 'url']);
    expectMedia(res.body, org, played, window);
    expect(res.body.size_bytes).toBe(bytes.length);

    const file = await fetch(res.body.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(file.headers.get('content-type')).toBe('audio/mp4');
    expect(file.headers.get('content-disposition')).toBe(
      `inline; filename="Reunion d'equipe.m4a"; filename*=UTF-8''R%C3%A9union%20d%27%C3%A9quipe.m4a`,
    );
  });

  it('the URL serves byte ranges, so a player can seek', async () => {
    const { org, bytes, played } = await world();
    const { url } = (await orgMedia(org, played, org.keys.orgRead)).body;
    const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
  });

  it('download=true makes it an attachment (saved, not played), under the same name', async () => {
    const { org, bytes, played } = await world();
    const res = await orgMedia(org, played, org.keys.orgRead, '?download=true');
    expect(res.status).toBe(200);
    const file = await fetch(res.body.url);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Reunion d'equipe.m4a"; filename*=UTF-8''R%C3%A9union%20d%27%C3%A9quipe.m4a`,
    );
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(
      (await fetch((await orgMedia(org, played, org.keys.orgRead, '?download=false')).body.url)).headers.get('content-disposition'),
    ).toMatch(/^inline; /);
  });

  it('download must be true or false (400 VALIDATION_ERROR naming it)', async () => {
    const { org, played } = await world();
    const res = await orgMedia(org, played, org.keys.orgRead, '?download=yes');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'download' })]);
    expect((await orgMedia(org, played, org.keys.orgRead, '?inline=true')).status).toBe(400);
  });

  it('writes nothing: reading media leaves the organization’s items (counters, audit trail) as they were', async () => {
    const { org, played } = await world();
    const before = await partition(org);
    expect((await orgMedia(org, played, org.keys.orgRead)).status).toBe(200);
    expect(await partition(org)).toEqual(before);
  });

  it('a recording whose file has not been uploaded yet is 409 RECORDING_NOT_UPLOADED', async () => {
    const { org } = await world();
    const res = await orgMedia(org, await pendingUpload(org), org.keys.orgRead);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(NOT_UPLOADED);
    expect(res.body.message).toMatch(/not been uploaded yet/);
  });

  it('a recording whose upload was not the declared file (state failed) is 409 RECORDING_NOT_UPLOADED', async () => {
    const { org } = await world();
    const failed = await upload(org, 'short.m4a', randomBytes(20), { sentBytes: randomBytes(10) });
    const res = await orgMedia(org, failed, org.keys.orgRead);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(NOT_UPLOADED);
    expect(res.body.message).toMatch(/upload failed/);
  });

  it('a recording that never had a file (imported without one) is 409 RECORDING_NOT_UPLOADED', async () => {
    const org = buildPlaybackOrg('play_nofile');
    await seedOrg(org, {
      recordings: [
        { id: org.recId('imported'), org_id: org.org, recorded_by: org.people.member.id, title: 'Imported', duration: 60, language: 'en' },
      ],
    });
    const res = await orgMedia(org, org.recId('imported'), org.keys.orgRead);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(NOT_UPLOADED);
  });

  it('in the trash it is 404 RECORDING_NOT_FOUND; restored, it plays again', async () => {
    const { org } = await world();
    const bytes = randomBytes(300);
    const recordingId = await upload(org, 'to-trash.m4a', bytes);
    expect((await send('DELETE', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgAll)).status).toBe(200);
    const trashed = await orgMedia(org, recordingId, org.keys.orgRead);
    expect(trashed.status).toBe(404);
    expect(trashed.body).toEqual(NOT_FOUND);
    expect((await send('POST', `/api/v1/organization/${org.org}/recordings/${recordingId}/restore`, org.keys.orgAll)).status).toBe(200);
    const restored = await orgMedia(org, recordingId, org.keys.orgRead);
    expect(restored.status).toBe(200);
    expect(Buffer.from(await (await fetch(restored.body.url)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('an unknown id, or another organization’s recording, is 404 RECORDING_NOT_FOUND', async () => {
    const { org, otherRecording } = await world();
    for (const recordingId of [`rec_nothing_${org.id}`, otherRecording]) {
      const res = await orgMedia(org, recordingId, org.keys.orgRead);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  describe('callers it admits', () => {
    // Who may play it (viewers and up, org keys with recordings:read), and what everyone else is
    // answered, is the access matrix's (test/integration/access-matrix.test.ts): here, an ID
    // token of the lowest role it admits plays it (an org key does in the tests above).
    it("a viewer's ID token plays it", async () => {
      const { org, played } = await world();
      const res = await orgMedia(org, played, await idTokenFor(org.people.viewer));
      expect(res.status).toBe(200);
      expect(res.body.size_bytes).toBe(64 * 1024);
    });
  });
});

describe('GET /api/v1/public/recordings/{recordingId}/media', () => {
  it('a personal key plays its own user’s recording: the same answer in the envelope, the same bytes', async () => {
    const { org, bytes, played } = await world();
    const { res, window } = await timed(() => publicMedia(played, org.keys.member));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success']);
    expect(res.body.success).toBe(true);
    expectMedia(res.body.data, org, played, window);
    const file = await fetch(res.body.data.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(file.headers.get('content-type')).toBe('audio/mp4');
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="Reunion d'equipe\.m4a"; /);
  });

  it('a personal key with recordings:read of another member gets 404 for it, exactly as for an id that does not exist', async () => {
    const { org, played } = await world();
    for (const token of [org.keys.admin, org.keys.viewer]) {
      const theirs = await publicMedia(played, token);
      const nothing = await publicMedia(`rec_nothing_${org.id}`, token);
      expect([theirs.status, nothing.status]).toEqual([404, 404]);
      expect(theirs.body).toEqual(NOT_FOUND);
      // Nothing tells the two apart but the id the message repeats.
      expect(theirs.body.message.replace(played, 'ID')).toBe(nothing.body.message.replace(`rec_nothing_${org.id}`, 'ID'));
    }
  });

  it('an org key plays any recording of its organization; another organization’s is 404', async () => {
    const { org, played, otherRecording } = await world();
    const own = await publicMedia(played, org.keys.orgRead, '?download=true');
    expect(own.status).toBe(200);
    expect((await fetch(own.body.data.url)).headers.get('content-disposition')).toMatch(/^attachment; /);
    const foreign = await publicMedia(otherRecording, org.keys.orgRead);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(NOT_FOUND);
  });

  it('its own recording not uploaded yet is 409 RECORDING_NOT_UPLOADED; in the trash, 404', async () => {
    const { org } = await world();
    const pending = await publicMedia(await pendingUpload(org), org.keys.member);
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual(NOT_UPLOADED);
    const recordingId = await upload(org, 'trash-me.m4a', randomBytes(50));
    expect((await send('DELETE', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgAll)).status).toBe(200);
    expect((await publicMedia(recordingId, org.keys.member)).body).toEqual(NOT_FOUND);
  });
});
