import { call, expectFailure, localDeployment, once } from '../../support/api';
import { runCli } from '../../support/cli';
import { eventually } from '../../support/eventually';
import { buildOrg, seedOrg } from '../../support/org-builder';
import { speechAvailable, spokenSentence } from '../../support/speech';

/**
 * Transcribe recording on both hosts: what each caller it admits gets (202 with the recording,
 * queued), its refusals (not uploaded, in progress, another member's for a personal key, the
 * allowance used up), and with auto_transcription off a recording that stays `uploaded` until
 * asked, then runs on the real engine. Who may call it: the access matrix.
 */
const { runtime, dataDir } = localDeployment();

const setup = once(async () => {
  const org = buildOrg({
    label: 'trq',
    keys: {
      member: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
      admin: { scopes: ['recordings:read', 'recordings:write'], user: 'admin' },
      write: { scopes: ['recordings:write', 'recordings:read'] },
    },
  });
  await seedOrg(org, { settings: [{ org_id: org.org, user_id: org.people.member.id, settings: { auto_transcription: false } }] });
  return org;
});

async function upload(key: string, body: Buffer, filename = 'memo.wav'): Promise<string> {
  const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
    token: key,
    body: { filename, content_type: 'audio/wav', size_bytes: body.length },
  });
  const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
  expect((await fetch(url, { method: 'PUT', headers, body })).status).toBe(200);
  return recordingId;
}

const transcribe = (orgId: string, key: string, recordingId: string, body?: unknown) =>
  call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/recordings/${recordingId}/transcribe`, { token: key, body });
const transcribePublic = (key: string, recordingId: string, body?: unknown) =>
  call(runtime.apiUrl, 'POST', `/api/v1/public/recordings/${recordingId}/transcribe`, { token: key, body });
const read = async (orgId: string, key: string, recordingId: string) =>
  (await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/recordings/${recordingId}`, { token: key })).body;

describe('POST /api/v1/organization/{orgId}/recordings/{recordingId}/transcribe (and the public alias)', () => {
  it('with auto_transcription off an upload stays `uploaded` until asked; then 202 queued, and it completes', async () => {
    const org = await setup();
    const recordingId = await upload(org.keys.member, speechAvailable ? spokenSentence().wav : Buffer.from('RIFF'));
    const uploaded = await eventually(
      () => read(org.org, org.keys.write, recordingId),
      (r) => r.state === 'uploaded',
    );
    expect(uploaded).toMatchObject({ state: 'uploaded', transcript_status: 'none', transcript_error: '' });

    const queued = await transcribe(org.org, org.keys.write, recordingId, { language: 'en-US' });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ id: recordingId, state: 'processing', transcript_status: 'queued', transcript_error: '' });
    expectFailure(await transcribe(org.org, org.keys.write, recordingId), 409, 'TRANSCRIPTION_IN_PROGRESS');
    if (!speechAvailable) return;
    const done = await eventually(
      () => read(org.org, org.keys.write, recordingId),
      (r) => r.transcript_status === 'completed' || r.transcript_status === 'failed',
    );
    expect(done).toMatchObject({ state: 'ready', transcript_status: 'completed' });
  });

  it("the public alias: a personal key transcribes its own recordings (202 in the envelope); another member's is 404", async () => {
    const org = await setup();
    const own = await upload(org.keys.member, Buffer.from('not audio at all'), 'own.wav');
    const others = await upload(org.keys.admin, Buffer.from('not audio either'), 'other.wav');
    await eventually(
      () => read(org.org, org.keys.write, own),
      (r) => r.state === 'uploaded',
    );

    const mine = await transcribePublic(org.keys.member, own);
    expect(mine.status).toBe(202);
    expect(mine.body).toMatchObject({ success: true, data: { id: own, transcript_status: 'queued' } });
    expectFailure(await transcribePublic(org.keys.member, others), 404, 'RECORDING_NOT_FOUND');
  });

  it('refuses a recording without its file (409 RECORDING_NOT_UPLOADED), unknown (404), and any once the allowance is used up (403)', async () => {
    const org = await setup();
    const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
      token: org.keys.member,
      body: { filename: 'later.wav', content_type: 'audio/wav', size_bytes: 10 },
    });
    expectFailure(await transcribe(org.org, org.keys.write, created.body.data.recording_id), 409, 'RECORDING_NOT_UPLOADED');
    expectFailure(await transcribe(org.org, org.keys.write, 'rec_nope'), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await transcribe(org.org, org.keys.write, org.recId('x'), { language: 'english' }), 400, 'VALIDATION_ERROR');

    const limited = await runCli(['org', 'set-limits', '--org', org.org, '--transcription-minutes', '0'], { LOCAL_DATA_DIR: dataDir });
    expect(limited.json).toMatchObject({ org_id: org.org, transcription_minutes: 0 });
    const recordingId = await upload(org.keys.member, Buffer.from('no speech here'), 'capped.wav');
    await eventually(
      () => read(org.org, org.keys.write, recordingId),
      (r) => r.state === 'uploaded',
    );
    expectFailure(await transcribe(org.org, org.keys.write, recordingId), 403, 'TRANSCRIPTION_QUOTA_EXCEEDED');
    const cleared = await runCli(['org', 'set-limits', '--org', org.org, '--transcription-minutes', 'none'], { LOCAL_DATA_DIR: dataDir });
    expect(cleared.json).toMatchObject({ transcription_minutes: null });
  });
});
