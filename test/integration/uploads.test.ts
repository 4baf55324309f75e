import { PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { S3Event } from 'aws-lambda';
import type { FixtureInput } from '../../shared/schemas/fixture';
import { call, failure, listObjects, localDeployment, localS3, once, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { buildOrg, noAutoTranscription, seedOrg } from '../support/org-builder';

/**
 * The public recordings routes end to end: Create upload URL (a pre-signed S3 PUT), the
 * S3 completion event (the S3 emulator runs the completion function, as S3 does in AWS),
 * and the public recordings list. Every rule of these routes has a test here
 * that fails when the rule breaks. Every test group builds its own organization.
 */
const { runtime, db } = localDeployment();

const INVALID = failure('VALIDATION_ERROR');
const UPLOAD_URL = '/api/v1/public/recordings/upload-url';
const PUBLIC_LIST = '/api/v1/public/recordings';
const PUBLIC_ITEM_FIELDS = [
  'created_at',
  'duration',
  'folder_id',
  'id',
  'language',
  'recorded_by',
  'recording_at',
  'state',
  'summarizations',
  'summarizations_errors',
  'tags',
  'title',
  'transcript',
  'transcript_error',
  'transcript_status',
  'translation',
  'translation_error',
  'updated_at',
  'upload_error',
];

// ---------------------------------------------------------------------------------------
// Organizations

type RecordingInput = NonNullable<FixtureInput['recordings']>[number];

/**
 * An organization of four active members (emails in mixed case: the API lower-cases them),
 * tags A and B, org keys and the personal keys of the member, the viewer and the admin.
 */
function buildUploadsOrg(label: string) {
  const both = ['recordings:read', 'recordings:write'] as const;
  return buildOrg({
    label,
    people: {
      owner: { role: 'owner', first: 'Olga', email: 'Olga.owner@Example.com' },
      admin: { role: 'admin', first: 'Adam', email: 'Adam.admin@Example.com' },
      member: { role: 'member', first: 'Mo', email: 'Mo.member@Example.com' },
      viewer: { role: 'viewer', first: 'Vic', email: 'Vic.viewer@Example.com' },
    },
    keys: {
      /** users:read too, for the members' counts */
      orgRead: { scopes: ['recordings:read', 'users:read'] },
      orgAll: { scopes: [...both] },
      member: { scopes: [...both], user: 'member' },
      memberRead: { scopes: ['recordings:read'], user: 'member' },
      memberWrite: { scopes: ['recordings:write'], user: 'member' },
      viewer: { scopes: [...both], user: 'viewer' },
      admin: { scopes: [...both], user: 'admin' },
    },
    tags: { A: { name: 'Alpha', color: '#ff0000' }, B: { name: 'Bravo', color: '#00ff00' } },
  });
}
type Org = ReturnType<typeof buildUploadsOrg>;

const seededOrg = (label: string, recordings: (org: Org) => RecordingInput[] = () => []): Promise<Org> => {
  const org = buildUploadsOrg(label);
  return seedOrg(org, { recordings: recordings(org), ...noAutoTranscription(org) });
};

// ---------------------------------------------------------------------------------------
// HTTP helpers

const send = (method: string, path: string, token: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });
const requestUpload = (token: string, body: unknown) => send('POST', UPLOAD_URL, token, body);
const publicList = (token: string, query = '') => send('GET', `${PUBLIC_LIST}${query ? `?${query}` : ''}`, token);
const idsOf = (res: ApiResponse) => (res.body.data as { id: string }[]).map((r) => r.id);

/** A valid upload request; tests override one field at a time. */
const uploadBody = (fields: Record<string, unknown> = {}) => ({
  filename: 'standup.m4a',
  content_type: 'audio/mp4',
  size_bytes: 11,
  ...fields,
});

/** The org's live total (org route) and the member's counts (List users). */
async function counts(org: Org, userId = org.people.member.id) {
  const [recordings, users] = await Promise.all([
    send('GET', `/api/v1/organization/${org.org}/recordings`, org.keys.orgRead),
    send('GET', `/api/v1/organization/${org.org}/users?limit=100`, org.keys.orgRead),
  ]);
  expect([recordings.status, users.status]).toEqual([200, 200]);
  const member = (users.body.data as { user_id: string; recording_count: number; latest_recording_at: string | null }[]).find(
    (m) => m.user_id === userId,
  )!;
  return {
    total: recordings.body.pagination.total as number,
    recording_count: member.recording_count,
    latest_recording_at: member.latest_recording_at,
  };
}

/** A recording as the public list shows it to the org key (undefined when not listed). */
async function publicItem(org: Org, recordingId: string) {
  const res = await publicList(org.keys.orgAll, 'limit=100');
  expect(res.status).toBe(200);
  return (res.body.data as { id: string; state: string }[]).find((r) => r.id === recordingId);
}

/** Waits (up to 5 s) until the public list shows the recording in `state`. */
const stateBecomes = async (org: Org, recordingId: string, state: string) =>
  (
    await eventually(
      () => publicItem(org, recordingId),
      (item) => item?.state === state,
    )
  )?.state;

const rawRecording = async (org: Org, recordingId: string) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName, Key: { PK: `ORG#${org.org}`, SK: `REC#${recordingId}` } }))).Item;

/** Requests an upload URL (the member's key) and PUTs the bytes to it, as a client would. */
async function uploadFile(org: Org, bytes: Buffer, fields: Record<string, unknown> = {}) {
  const created = await requestUpload(org.keys.member, uploadBody({ size_bytes: bytes.length, ...fields }));
  expect(created.status).toBe(201);
  const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
  const put = await fetch(url, { method: 'PUT', headers, body: bytes });
  expect(put.status).toBe(200);
  return recordingId as string;
}

/** PUTs bytes to an upload URL with the given headers; the S3 emulator does not check the signature, so any size or type lands. */
const putTo = (url: string, body: Buffer, headers: Record<string, string>) => fetch(url, { method: 'PUT', headers, body });

/** The completion function, loaded in this process under the local deployment's configuration. */
async function completionFunction() {
  Object.assign(process.env, {
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    BUCKET_NAME: runtime.bucketName,
    S3_ENDPOINT: runtime.s3Endpoint,
    AWS_REGION: runtime.region,
    LOG_LEVEL: 'ERROR',
  });
  return (await import('../../functions/events/complete-upload')).handler;
}

/** An ObjectCreated event as S3 sends it, for objects at these keys with this size. */
const objectCreated = (size: number, ...objectKeys: string[]) =>
  ({
    Records: objectKeys.map((key) => ({
      eventName: 'ObjectCreated:Put',
      s3: { bucket: { name: runtime.bucketName }, object: { key, size } },
    })),
  }) as unknown as S3Event;

/** Puts an object straight into the bucket (any key), as another writer of the bucket would. */
async function putObject(key: string, body: string) {
  const { s3, bucket } = localS3();
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'audio/mp4' }));
}

/** The organization uploads go to: Create upload URL's tests, then the completion's. */
const uploadsOrg = once(() => seededOrg('up'));

// ---------------------------------------------------------------------------------------

describe('POST /api/v1/public/recordings/upload-url', () => {
  let org: Org;
  beforeAll(async () => {
    org = await uploadsOrg();
  });

  it('issues a pre-signed PUT, the recording waits pending_upload, the bytes land and the S3 event marks it uploaded', async () => {
    const bytes = Buffer.from('RIFF-fake-audio-payload');
    const before = await counts(org);
    const sentAt = Date.now();
    const res = await requestUpload(
      org.keys.member,
      uploadBody({
        filename: 'standup.m4a',
        size_bytes: bytes.length,
        title: 'Daily standup',
        language: 'pt-BR',
        recorded_at: '2026-06-01T09:00:00.000Z',
        folder_id: 'fld_team',
        tag_ids: [org.tags.A.id, org.tags.B.id],
      }),
    );
    const receivedAt = Date.now();

    // 201 {success, data: {recording_id, upload_url, method, headers, expires_at}}
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        recording_id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        upload_url: expect.any(String),
        method: 'PUT',
        // The headers the PUT must send, exactly: both are signed.
        headers: { 'content-type': 'audio/mp4', 'content-length': String(bytes.length) },
        expires_at: expect.stringMatching(TIMESTAMP),
      },
    });
    const { recording_id: recordingId, upload_url: uploadUrl, expires_at: expiresAt } = res.body.data;
    // Expires 15 minutes ahead.
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(sentAt + 900_000 - 1000);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(receivedAt + 900_000 + 1000);

    // A pre-signed URL of the bucket that signs the content type and length and expires in 900 s.
    const url = new URL(uploadUrl);
    expect(url.origin).toBe(new URL(runtime.s3Endpoint).origin);
    expect(decodeURIComponent(url.pathname)).toContain(`/${runtime.bucketName}/recordings/${org.org}/${recordingId}/`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    // Signing content-type and content-length makes S3 refuse a PUT of another type or size.
    // (The S3 emulator does not verify SigV4 signatures: test/unit/recording-objects.test.ts
    // verifies them; here the completion's own check is what refuses a mismatch.)
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host']),
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    // The recording exists, pending_upload, listed and counted for its recorder.
    const pending = await publicItem(org, recordingId);
    expect(pending).toMatchObject({
      id: recordingId,
      title: 'Daily standup',
      state: 'pending_upload',
      language: 'pt-BR',
      folder_id: 'fld_team',
      recording_at: '2026-06-01T09:00:00.000Z',
      recorded_by: { user_id: org.people.member.id, email: org.people.member.email.toLowerCase(), display_name: 'Mo member' },
      tags: [
        { id: org.tags.A.id, name: 'Alpha', color: '#ff0000' },
        { id: org.tags.B.id, name: 'Bravo', color: '#00ff00' },
      ],
    });
    expect(idsOf(await publicList(org.keys.member))).toContain(recordingId);
    const orgList = await send('GET', `/api/v1/organization/${org.org}/recordings?tagIds=${org.tags.B.id}`, org.keys.orgRead);
    expect(orgList.body.recordings.map((r: { id: string }) => r.id)).toContain(recordingId);
    const afterCreate = await counts(org);
    expect(afterCreate).toEqual({
      total: before.total + 1,
      recording_count: before.recording_count + 1,
      latest_recording_at: expect.stringMatching(TIMESTAMP),
    });
    expect(await listObjects(`recordings/${org.org}/${recordingId}/`)).toEqual([]);

    // PUT the bytes; S3's ObjectCreated event moves the recording to uploaded.
    const put = await fetch(uploadUrl, { method: 'PUT', headers: res.body.data.headers, body: bytes });
    expect(put.status).toBe(200);
    expect(await stateBecomes(org, recordingId, 'uploaded')).toBe('uploaded');
    const objects = await listObjects(`recordings/${org.org}/${recordingId}/`);
    expect(objects).toEqual([{ key: expect.stringMatching(/standup\.m4a$/), size: bytes.length }]);
    const stored = (await rawRecording(org, recordingId))!;
    expect(stored.upload).toMatchObject({
      size_bytes: bytes.length,
      uploaded_bytes: bytes.length,
      content_type: 'audio/mp4',
      uploaded_content_type: 'audio/mp4',
    });
    expect(stored).not.toHaveProperty('upload_error');
    const read = await send('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgRead);
    expect(read.body).toMatchObject({ id: recordingId, state: 'uploaded', upload_error: '', title: 'Daily standup' });
    expect(await publicItem(org, recordingId)).toMatchObject({ state: 'uploaded', upload_error: '' });
    // Completing the upload does not count the recording twice.
    expect(await counts(org)).toEqual(afterCreate);
  });

  it('defaults: language en, the title from the file name without its extension', async () => {
    const res = await requestUpload(org.keys.member, uploadBody({ filename: 'Board review.final.mp3', content_type: 'audio/mpeg' }));
    expect(res.status).toBe(201);
    expect(await publicItem(org, res.body.data.recording_id)).toMatchObject({
      state: 'pending_upload',
      language: 'en',
      title: 'Board review.final',
    });
  });

  it.each(['audio/mpeg', 'audio/wav', 'audio/webm', 'video/mp4', 'video/quicktime'])(
    'accepts the media type %s and signs it',
    async (contentType) => {
      const res = await requestUpload(org.keys.member, uploadBody({ filename: 'clip.bin', content_type: contentType }));
      expect(res.status).toBe(201);
      expect(res.body.data.headers).toEqual({ 'content-type': contentType, 'content-length': '11' });
    },
  );

  it('accepts exactly the maximum size (1 GiB)', async () => {
    const res = await requestUpload(org.keys.member, uploadBody({ size_bytes: 1024 ** 3 }));
    expect(res.status).toBe(201);
  });

  it('a personal key of an admin may upload too', async () => {
    const res = await requestUpload(org.keys.admin, uploadBody());
    expect(res.status).toBe(201);
    expect(await publicItem(org, res.body.data.recording_id)).toMatchObject({
      recorded_by: expect.objectContaining({ user_id: org.people.admin.id }),
    });
  });

  describe('validation (400 VALIDATION_ERROR, nothing created)', () => {
    let other: Org;
    beforeAll(async () => {
      other = await seededOrg('up_other');
    });

    it.each([
      ['no filename', () => ({ content_type: 'audio/mp4', size_bytes: 10 })],
      ['an empty filename', () => uploadBody({ filename: '  ' })],
      ['a filename with a slash', () => uploadBody({ filename: 'a/b.m4a' })],
      ['a filename with a backslash', () => uploadBody({ filename: 'a\\b.m4a' })],
      ['a filename of 256 characters', () => uploadBody({ filename: `${'a'.repeat(252)}.m4a` })],
      ['no content_type', () => ({ filename: 'a.m4a', size_bytes: 10 })],
      ['a content_type not allowed', () => uploadBody({ content_type: 'text/plain' })],
      ['an image content_type', () => uploadBody({ content_type: 'image/png' })],
      ['no size_bytes', () => ({ filename: 'a.m4a', content_type: 'audio/mp4' })],
      ['size_bytes 0', () => uploadBody({ size_bytes: 0 })],
      ['negative size_bytes', () => uploadBody({ size_bytes: -5 })],
      ['non-integer size_bytes', () => uploadBody({ size_bytes: 10.5 })],
      ['size_bytes as a string', () => uploadBody({ size_bytes: '10' })],
      ['size_bytes above the maximum (1 GiB)', () => uploadBody({ size_bytes: 1073741825 })],
      ['an unknown field', () => uploadBody({ colour: 'red' })],
      ['tag_ids of another organization', () => uploadBody({ tag_ids: [other.tags.A.id] })],
      ['tag_ids mixing own and foreign tags', () => uploadBody({ tag_ids: [org.tags.A.id, other.tags.B.id] })],
      ['unknown tag_ids', () => uploadBody({ tag_ids: [`tag_none_${org.id}`] })],
      ['tag_ids that is not an array', () => uploadBody({ tag_ids: org.tags.A.id })],
      ['a bad language', () => uploadBody({ language: 'English' })],
      ['a bad recorded_at', () => uploadBody({ recorded_at: 'yesterday' })],
      ['a recorded_at that is no date', () => uploadBody({ recorded_at: '2026-13-45T00:00:00.000Z' })],
      ['an empty title', () => uploadBody({ title: '' })],
      ['an empty body', () => ({})],
      ['a body that is an array', () => [uploadBody()]],
    ])('%s', async (_label, body) => {
      const before = await counts(org);
      const res = await requestUpload(org.keys.member, body());
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
      expect(await counts(org)).toEqual(before);
    });
  });

  describe('callers it admits', () => {
    // Who may upload, and what everyone else is answered, is the access matrix's
    // (test/integration/access-matrix.test.ts): here, the lowest role's personal key with only
    // the route's scope gets its upload.
    it('a member’s personal key with only recordings:write may upload', async () => {
      expect((await requestUpload(org.keys.memberWrite, uploadBody())).status).toBe(201);
    });
  });
});

describe('GET /api/v1/public/recordings', () => {
  let org: Org;
  let other: Org;
  const id = (name: string) => org.recId(name);

  beforeAll(async () => {
    org = await seededOrg('pub', (o) => {
      const rec = (name: string, fields: Partial<RecordingInput>): RecordingInput => ({
        id: o.recId(name),
        org_id: o.org,
        recorded_by: o.people.member.id,
        title: `Recording ${name}`,
        duration: 30,
        language: 'en',
        ...fields,
      });
      return [
        rec('p1', {
          created_at: '2026-05-10T00:00:00.000Z',
          recording_at: '2026-05-09T18:00:00.000Z',
          tags: [o.tags.A.id, o.tags.B.id],
          folder_id: 'fld_1',
          duration: 321.5,
          transcript: [
            { speaker: 'Mo', text: 'Hello', start: 0, end: 1 },
            { speaker: 'Ann', text: 'Hi', start: 1, end: 2 },
          ],
          summary: { markdown: '# Notes' },
          translation: { to_language: 'fr', detected_language: 'en' },
        }),
        rec('p2', { created_at: '2026-05-10T23:59:59.999Z', state: 'processing' }),
        rec('p3', { created_at: '2026-05-11T00:00:00.000Z', tags: [o.tags.B.id] }),
        rec('p4', { created_at: '2026-05-09T23:59:59.999Z' }),
        rec('q1', { created_at: '2026-05-10T12:00:00.000Z', tags: [o.tags.A.id], recorded_by: o.people.admin.id }),
        rec('gone', { created_at: '2026-05-10T08:00:00.000Z', tags: [o.tags.A.id], deleted_at: '2026-05-12T00:00:00.000Z' }),
      ];
    });
    // Another organization, where the same member also records.
    other = buildUploadsOrg('pub_other');
    await seedOrg(other, {
      memberships: [{ org_id: other.org, user_id: org.people.member.id, role: 'member' }],
      recordings: [
        {
          id: other.recId('elsewhere'),
          org_id: other.org,
          recorded_by: org.people.member.id,
          title: 'Elsewhere',
          duration: 1,
          language: 'en',
          created_at: '2026-05-10T10:00:00.000Z',
        },
      ],
    });
  });

  const expectPage = async (token: string, query: string, names: string[], total = names.length) => {
    const res = await publicList(token, query);
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual(names.map(id));
    expect(res.body.pagination.total).toBe(total);
  };

  it('an org key sees the organization’s live recordings, newest first, in the envelope with page-based pagination', async () => {
    const res = await publicList(org.keys.orgRead);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(res.body.success).toBe(true);
    expect(idsOf(res)).toEqual(['p3', 'p2', 'q1', 'p1', 'p4'].map(id));
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 5, total_pages: 1, has_more: false });
  });

  it('a personal key sees only its user’s own recordings, in the key’s organization', async () => {
    await expectPage(org.keys.member, '', ['p3', 'p2', 'p1', 'p4']);
    await expectPage(org.keys.memberRead, 'tag_ids=' + org.tags.A.id, ['p1']);
    await expectPage(org.keys.admin, '', ['q1']);
    await expectPage(org.keys.viewer, '', []);
  });

  it('items carry every field of the public list item', async () => {
    const items = (await publicList(org.keys.orgRead)).body.data as Record<string, unknown>[];
    for (const item of items) expect(Object.keys(item).sort()).toEqual(PUBLIC_ITEM_FIELDS);
    const full = items.find((item) => item.id === id('p1'))!;
    expect(full).toEqual({
      id: id('p1'),
      title: 'Recording p1',
      created_at: '2026-05-10T00:00:00.000Z',
      updated_at: expect.stringMatching(TIMESTAMP),
      recording_at: '2026-05-09T18:00:00.000Z',
      duration: 321.5,
      language: 'en',
      folder_id: 'fld_1',
      state: 'ready',
      recorded_by: { display_name: 'Mo member', email: org.people.member.email.toLowerCase(), user_id: org.people.member.id },
      tags: [
        { id: org.tags.A.id, name: 'Alpha', color: '#ff0000' },
        { id: org.tags.B.id, name: 'Bravo', color: '#00ff00' },
      ],
      summarizations: [expect.objectContaining({ markdown: '# Notes' })],
      summarizations_errors: [],
      // The transcript's header (docs/decisions.md): its segments come from Get recording.
      transcript: {
        id: expect.any(String),
        language: 'en',
        segment_count: 2,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      },
      transcript_error: '',
      transcript_status: 'completed',
      translation: {
        id: expect.any(String),
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        detected_language: 'en',
        to_language: 'fr',
        processing_status: expect.any(String),
        error_message: '',
      },
      translation_error: '',
      upload_error: '',
    });

    const bare = items.find((item) => item.id === id('p2'))!;
    expect(bare).toEqual({
      id: id('p2'),
      title: 'Recording p2',
      created_at: '2026-05-10T23:59:59.999Z',
      updated_at: expect.stringMatching(TIMESTAMP),
      recording_at: '2026-05-10T23:59:59.999Z',
      duration: 30,
      language: 'en',
      folder_id: '', // none (docs/decisions.md)
      state: 'processing',
      recorded_by: { display_name: 'Mo member', email: org.people.member.email.toLowerCase(), user_id: org.people.member.id },
      tags: [],
      summarizations: null,
      summarizations_errors: [],
      transcript: null,
      transcript_error: '',
      transcript_status: 'none',
      translation: null,
      translation_error: '',
      upload_error: '',
    });
  });

  describe('start_date and end_date are UTC days', () => {
    it.each([
      ['start_date=2026-05-10&end_date=2026-05-10', ['p2', 'q1', 'p1']],
      ['start_date=2026-05-10', ['p3', 'p2', 'q1', 'p1']],
      ['end_date=2026-05-10', ['p2', 'q1', 'p1', 'p4']],
      ['start_date=2026-05-11&end_date=2026-05-11', ['p3']],
      ['end_date=2026-05-09', ['p4']],
      ['start_date=2026-05-09&end_date=2026-05-11', ['p3', 'p2', 'q1', 'p1', 'p4']],
      ['start_date=2026-05-12', []],
    ])('%s', async (query, names) => {
      await expectPage(org.keys.orgRead, query, names);
    });
  });

  it('tag_ids matches any of the tags, each recording once', async () => {
    await expectPage(org.keys.orgRead, `tag_ids=${org.tags.A.id}`, ['q1', 'p1']);
    await expectPage(org.keys.orgRead, `tag_ids=${org.tags.A.id},${org.tags.B.id}`, ['p3', 'q1', 'p1']);
    await expectPage(org.keys.member, `tag_ids=${org.tags.A.id},${org.tags.B.id}`, ['p3', 'p1']);
    await expectPage(org.keys.orgRead, `tag_ids=${org.tags.A.id}&start_date=2026-05-10&end_date=2026-05-10`, ['q1', 'p1']);
    await expectPage(org.keys.orgRead, `tag_ids=${other.tags.A.id}`, []);
  });

  it('pages: limit, total_pages, has_more, and a page past the end', async () => {
    const page = async (query: string) => (await publicList(org.keys.orgRead, query)).body;
    expect(await page('limit=2')).toEqual({
      success: true,
      data: expect.any(Array),
      pagination: { page: 1, limit: 2, total: 5, total_pages: 3, has_more: true },
    });
    const pages = [await page('limit=2&page=1'), await page('limit=2&page=2'), await page('limit=2&page=3')];
    expect(pages.flatMap((p) => p.data.map((r: { id: string }) => r.id))).toEqual(['p3', 'p2', 'q1', 'p1', 'p4'].map(id));
    expect(pages[1].pagination).toEqual({ page: 2, limit: 2, total: 5, total_pages: 3, has_more: true });
    expect(pages[2].pagination).toEqual({ page: 3, limit: 2, total: 5, total_pages: 3, has_more: false });
    expect(await page('limit=2&page=4')).toEqual({
      success: true,
      data: [],
      pagination: { page: 4, limit: 2, total: 5, total_pages: 3, has_more: false },
    });
    expect((await page('limit=100')).pagination).toEqual({ page: 1, limit: 100, total: 5, total_pages: 1, has_more: false });
  });

  it.each([
    'limit=101',
    'limit=0',
    'limit=x',
    'page=0',
    'start_date=2026-02-30',
    'start_date=2026-5-10',
    'end_date=tomorrow',
    'start_date=2026-05-11&end_date=2026-05-10',
    'tagIds=tag_x',
    'cursor=abc',
  ])('rejects %s with 400 VALIDATION_ERROR', async (query) => {
    const res = await publicList(org.keys.orgRead, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
  });

  describe('the organization of the key', () => {
    // Who may list, and what everyone else is answered, is the access matrix's (test/integration/access-matrix.test.ts).
    it('another organization’s key sees its own organization only', async () => {
      const res = await publicList(other.keys.orgRead);
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual([other.recId('elsewhere')]);
    });
  });
});

describe('the upload completion (the S3 emulator runs it on each ObjectCreated event, as S3 does in AWS)', () => {
  describe('robustness', () => {
    let org: Org;
    beforeAll(async () => {
      org = await uploadsOrg();
    });

    it('objects under unknown keys, outside recordings/, or at another key of a pending recording change nothing', async () => {
      const pendingRes = await requestUpload(org.keys.member, uploadBody({ filename: 'waiting.m4a' }));
      const pendingId = pendingRes.body.data.recording_id as string;
      const pendingBefore = await rawRecording(org, pendingId);
      const before = await counts(org);

      await putObject(`recordings/${org.org}/rec_unknown_${org.id}/file.m4a`, 'x');
      await putObject(`elsewhere/${org.id}/notes.txt`, 'x');
      await putObject(`recordings/${org.org}/${pendingId}/another-name.m4a`, 'x'); // not the key it was issued for
      await putObject(`recordings/org_other_${org.id}/${pendingId}/waiting.m4a`, 'x'); // another organization's path
      await putObject(`recordings/${org.org}/${pendingId}`, 'x'); // no file name
      await putObject(`recordings/${org.org}/${pendingId}/waiting.m4a/extra`, 'x'); // deeper

      // A real upload afterwards still completes: the completion function kept working.
      const sentinel = await uploadFile(org, Buffer.from('sentinel'), { filename: 'sentinel.m4a' });
      expect(await stateBecomes(org, sentinel, 'uploaded')).toBe('uploaded');

      expect(await rawRecording(org, pendingId)).toEqual(pendingBefore);
      expect((await publicItem(org, pendingId))?.state).toBe('pending_upload');
      expect(await counts(org)).toEqual({
        ...before,
        total: before.total + 1,
        recording_count: before.recording_count + 1,
        latest_recording_at: expect.stringMatching(TIMESTAMP),
      });
    });

    it('a repeated event (the same key put again) keeps the recording uploaded and unchanged', async () => {
      const recordingId = await uploadFile(org, Buffer.from('first upload'), { filename: 'twice.m4a' });
      expect(await stateBecomes(org, recordingId, 'uploaded')).toBe('uploaded');
      const uploaded = await rawRecording(org, recordingId);
      const [object] = await listObjects(`recordings/${org.org}/${recordingId}/`);

      await putObject(object.key, 'again, longer than before');
      const sentinel = await uploadFile(org, Buffer.from('sentinel'), { filename: 'sentinel.m4a' });
      expect(await stateBecomes(org, sentinel, 'uploaded')).toBe('uploaded');

      expect(await rawRecording(org, recordingId)).toEqual(uploaded);
      expect((await publicItem(org, recordingId))?.state).toBe('uploaded');
    });

    it('the completion function itself ignores unknown keys and repeated events without failing', async () => {
      const handler = await completionFunction();
      const recordingId = await uploadFile(org, Buffer.from('direct'), { filename: 'direct.m4a' });
      expect(await stateBecomes(org, recordingId, 'uploaded')).toBe('uploaded');
      const uploaded = await rawRecording(org, recordingId);
      const [object] = await listObjects(`recordings/${org.org}/${recordingId}/`);
      const event = (...keys: string[]) => objectCreated(99, ...keys);

      const keys = [
        `recordings/${org.org}/rec_unknown_${org.id}/a.m4a`, // no such recording
        'outside/of/recordings.m4a', // not a recording's key
        'recordings/%2F%2F/x', // malformed
        object.key, // the same upload again
        encodeURIComponent(object.key), // again, URL-encoded as S3 sends keys
      ];
      await expect(handler(event(...keys))).resolves.toBeUndefined();
      await expect(handler({} as S3Event)).resolves.toBeUndefined();
      expect(await rawRecording(org, recordingId)).toEqual(uploaded);
    });
  });

  describe('an upload that is not what it declared', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededOrg('mismatch');
    });

    const orgGet = (recordingId: string) => send('GET', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgRead);

    /** Declares an upload, then PUTs `bytes` with `contentType` (whatever was declared); returns the recording and its URL. */
    async function mismatchedUpload(
      declared: { size_bytes: number; content_type: string; filename?: string },
      bytes: Buffer,
      contentType: string,
    ) {
      const created = await requestUpload(org.keys.member, uploadBody(declared));
      expect(created.status).toBe(201);
      const { recording_id: recordingId, upload_url: url } = created.body.data as { recording_id: string; upload_url: string };
      // The emulator does not verify signatures (S3 would refuse this PUT): the completion's check is what remains.
      const put = await putTo(url, bytes, { 'content-type': contentType });
      expect(put.status).toBe(200);
      return { recordingId, url };
    }

    it.each([
      [5, 20],
      [20, 5],
    ])(
      'declared %i bytes, received %i: failed with the reason, shown by Get and the public list, counted once',
      async (declared, received) => {
        const before = await counts(org);
        const { recordingId } = await mismatchedUpload(
          { size_bytes: declared, content_type: 'audio/mp4' },
          Buffer.alloc(received, 7),
          'audio/mp4',
        );
        const reason = `size_mismatch: declared ${declared} bytes, received ${received}`;

        expect(await stateBecomes(org, recordingId, 'failed')).toBe('failed');
        expect(await rawRecording(org, recordingId)).toMatchObject({
          state: 'failed',
          upload_error: reason,
          upload: {
            size_bytes: declared,
            uploaded_bytes: received,
            content_type: 'audio/mp4',
            uploaded_content_type: 'audio/mp4',
            uploaded_at: expect.stringMatching(TIMESTAMP),
          },
        });
        const read = await orgGet(recordingId);
        expect(read.status).toBe(200);
        expect(read.body).toMatchObject({ id: recordingId, state: 'failed', upload_error: reason });
        expect(await publicItem(org, recordingId)).toMatchObject({ state: 'failed', upload_error: reason, transcript_error: '' });
        const own = (await publicList(org.keys.member, 'limit=100')).body.data as { id: string; state: string; upload_error: string }[];
        expect(own.find((r) => r.id === recordingId)).toMatchObject({ state: 'failed', upload_error: reason });

        // Still a live recording of its member (docs/decisions.md): counted once, when it was created, and not again.
        expect(await counts(org)).toEqual({
          total: before.total + 1,
          recording_count: before.recording_count + 1,
          latest_recording_at: expect.stringMatching(TIMESTAMP),
        });
        const orgList = await send('GET', `/api/v1/organization/${org.org}/recordings?limit=100`, org.keys.orgRead);
        expect(orgList.body.recordings.map((r: { id: string }) => r.id)).toContain(recordingId);
        // The object stays where it landed (docs/decisions.md); only the recording's delete removes it.
        expect(await listObjects(`recordings/${org.org}/${recordingId}/`)).toEqual([
          { key: expect.stringMatching(/standup\.m4a$/), size: received },
        ]);
      },
    );

    it('another content type than declared: failed with content_type_mismatch', async () => {
      const { recordingId } = await mismatchedUpload({ size_bytes: 11, content_type: 'audio/mp4' }, Buffer.alloc(11, 1), 'audio/mpeg');
      expect(await stateBecomes(org, recordingId, 'failed')).toBe('failed');
      const reason = 'content_type_mismatch: declared audio/mp4, received audio/mpeg';
      expect(await rawRecording(org, recordingId)).toMatchObject({
        state: 'failed',
        upload_error: reason,
        upload: { uploaded_bytes: 11, uploaded_content_type: 'audio/mpeg' },
      });
      expect((await orgGet(recordingId)).body).toMatchObject({ state: 'failed', upload_error: reason });
    });

    it('both wrong: both reasons', async () => {
      const { recordingId } = await mismatchedUpload({ size_bytes: 5, content_type: 'audio/mp4' }, Buffer.alloc(20), 'video/mp4');
      expect(await stateBecomes(org, recordingId, 'failed')).toBe('failed');
      expect((await orgGet(recordingId)).body).toMatchObject({
        state: 'failed',
        upload_error: 'size_mismatch: declared 5 bytes, received 20; content_type_mismatch: declared audio/mp4, received video/mp4',
      });
    });

    it('the declared size and type, sent with the returned headers, still end uploaded with no error', async () => {
      const bytes = Buffer.from('exactly as declared');
      const created = await requestUpload(
        org.keys.member,
        uploadBody({ size_bytes: bytes.length, content_type: 'audio/webm', filename: 'ok.webm' }),
      );
      const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
      expect(headers).toEqual({ 'content-type': 'audio/webm', 'content-length': String(bytes.length) });
      expect((await putTo(url, bytes, headers)).status).toBe(200);
      expect(await stateBecomes(org, recordingId, 'uploaded')).toBe('uploaded');
      expect((await orgGet(recordingId)).body).toMatchObject({ state: 'uploaded', upload_error: '' });
      expect(await rawRecording(org, recordingId)).not.toHaveProperty('upload_error');
    });

    it('a failed upload is final: the right file PUT to the same URL afterwards changes nothing', async () => {
      const { recordingId, url } = await mismatchedUpload(
        { size_bytes: 5, content_type: 'audio/mp4', filename: 'retry.m4a' },
        Buffer.alloc(20),
        'audio/mp4',
      );
      expect(await stateBecomes(org, recordingId, 'failed')).toBe('failed');
      const failed = await rawRecording(org, recordingId);

      expect((await putTo(url, Buffer.alloc(5), { 'content-type': 'audio/mp4' })).status).toBe(200);
      // Events are handled in order: once the sentinel's has been, the retry's has too.
      const sentinel = await uploadFile(org, Buffer.from('sentinel'), { filename: 'sentinel.m4a' });
      expect(await stateBecomes(org, sentinel, 'uploaded')).toBe('uploaded');
      expect(await rawRecording(org, recordingId)).toEqual(failed);
    });

    it('a failed recording leaves like any other: trash and permanent delete move the counts back and remove the object', async () => {
      const before = await counts(org);
      const { recordingId } = await mismatchedUpload(
        { size_bytes: 5, content_type: 'audio/mp4', filename: 'gone.m4a' },
        Buffer.alloc(9),
        'audio/mp4',
      );
      expect(await stateBecomes(org, recordingId, 'failed')).toBe('failed');
      expect((await counts(org)).total).toBe(before.total + 1);

      expect((await send('DELETE', `/api/v1/organization/${org.org}/recordings/${recordingId}`, org.keys.orgAll)).status).toBe(200);
      expect(await counts(org)).toEqual({ ...before, latest_recording_at: expect.anything() });
      expect(
        (await send('DELETE', `/api/v1/organization/${org.org}/recordings/${recordingId}?permanent=true`, org.keys.orgAll)).status,
      ).toBe(200);
      // The object goes shortly after, with the object cleanup consumer (off the request path).
      expect(
        await eventually(
          () => listObjects(`recordings/${org.org}/${recordingId}/`),
          (objects) => objects.length === 0,
        ),
      ).toEqual([]);
      expect(await rawRecording(org, recordingId)).toBeUndefined();
      expect((await counts(org)).total).toBe(before.total);
    });

    it('the completion function judges an object already gone (deleted before its type could be read) by the size its event carries', async () => {
      const handler = await completionFunction();
      const ids: string[] = [];
      for (const filename of ['vanished-ok.m4a', 'vanished-bad.m4a']) {
        const created = await requestUpload(org.keys.member, uploadBody({ size_bytes: 5, filename }));
        ids.push(created.body.data.recording_id);
      }
      const keyOf = (recordingId: string, filename: string) => `recordings/${org.org}/${recordingId}/${filename}`;
      await handler(objectCreated(5, keyOf(ids[0], 'vanished-ok.m4a')));
      await handler(objectCreated(6, keyOf(ids[1], 'vanished-bad.m4a')));

      expect(await rawRecording(org, ids[0])).toMatchObject({ state: 'uploaded', upload: { uploaded_bytes: 5 } });
      expect((await rawRecording(org, ids[0]))!.upload).not.toHaveProperty('uploaded_content_type');
      expect(await rawRecording(org, ids[1])).toMatchObject({
        state: 'failed',
        upload_error: 'size_mismatch: declared 5 bytes, received 6',
      });
    });
  });
});
