import { call, expectFailure, localDeployment, once } from '../../support/api';
import { eventually } from '../../support/eventually';
import { buildOrg, seedOrg } from '../../support/org-builder';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';

/**
 * Translate recording on both hosts, end to end on the local deployment: the request (202 with
 * the Translation, queued), the consumer translating the transcript with Apertium through the
 * Translate stand-in, the recording's `translation`, Get transcript in Spanish in every format
 * (same speakers and times), 404 for a language not translated, an unsupported pair ending
 * `failed` with the reason, the events in the audit log and at a webhook endpoint (never the
 * text), and the refusals. Who may call it: the access matrix.
 */
const { runtime } = localDeployment();

const SEGMENTS = [
  { speaker: 'Speaker 1', text: 'The budget for the new office is approved.', start: 0.5, end: 3.25 },
  { speaker: 'Speaker 2', text: 'We need to review the schedule.', start: 4, end: 6.5 },
];

const setup = once(async () => {
  const org = buildOrg({
    label: 'tln',
    keys: {
      write: { scopes: ['recordings:read', 'recordings:write', 'audit:read', 'webhooks:write'] },
      member: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
    },
  });
  const recording = (name: string, fields: Record<string, unknown> = {}) => ({
    id: org.recId(name),
    org_id: org.org,
    recorded_by: org.people.member.id,
    title: 'Office budget',
    duration: 7,
    language: 'en-US',
    created_at: '2026-11-16T09:05:00.000Z',
    ...fields,
  });
  await seedOrg(org, {
    recordings: [
      recording('es', { transcript: SEGMENTS }),
      recording('fr', { transcript: SEGMENTS }),
      recording('own', { transcript: SEGMENTS }),
      recording('admins', { transcript: SEGMENTS, recorded_by: org.people.admin.id }),
      recording('none'),
    ],
  });
  return org;
});

const translate = (orgId: string, key: string, recordingId: string, body?: unknown) =>
  call(runtime.apiUrl, 'POST', `/api/v1/organization/${orgId}/recordings/${recordingId}/translations`, { token: key, body });
const translatePublic = (key: string, recordingId: string, body?: unknown) =>
  call(runtime.apiUrl, 'POST', `/api/v1/public/recordings/${recordingId}/translations`, { token: key, body });
const translationOf = async (orgId: string, key: string, recordingId: string) =>
  (await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/recordings/${recordingId}?include=translation`, { token: key })).body;
const settled = (recording: { translation?: { processing_status?: string } | null }) =>
  recording.translation?.processing_status === 'completed' || recording.translation?.processing_status === 'failed';
const transcript = (orgId: string, key: string, recordingId: string, query: string) =>
  call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/recordings/${recordingId}/transcript?${query}`, { token: key });

describe('POST /api/v1/organization/{orgId}/recordings/{recordingId}/translations (and the public alias)', () => {
  let receiver: Receiver | undefined;
  afterAll(async () => receiver?.close());

  it('translates the transcript to Spanish with the local engine: 202 queued, then completed, exported in every format, announced without the text', async () => {
    const org = await setup();
    receiver = await startReceiver();
    const hook = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${org.org}/webhooks`, {
      token: org.keys.write,
      body: {
        url: receiver.url,
        events: ['recording.translation_queued', 'recording.translation_completed', 'recording.translation_failed'],
      },
    });
    expect(hook.status).toBe(201);
    const recordingId = org.recId('es');

    const queued = await translate(org.org, org.keys.write, recordingId, { to_language: 'es' });
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({
      id: expect.stringMatching(/^trl_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      detected_language: 'en',
      to_language: 'es',
      processing_status: 'queued',
      error_message: '',
    });

    const done = await eventually(() => translationOf(org.org, org.keys.write, recordingId), settled);
    expect(done.translation).toMatchObject({
      id: queued.body.id,
      detected_language: 'en',
      to_language: 'es',
      processing_status: 'completed',
      error_message: '',
    });

    const json = await transcript(org.org, org.keys.write, recordingId, 'language=es');
    expect(json.status).toBe(200);
    expect(json.body).toEqual({
      recording_id: recordingId,
      language: 'es',
      text: expect.stringContaining('El presupuesto para la oficina nueva está aprobado.'),
      segments: [
        { speaker: 'Speaker 1', text: 'El presupuesto para la oficina nueva está aprobado.', start: 0.5, end: 3.25 },
        { speaker: 'Speaker 2', text: expect.stringMatching(/calendario|horario/), start: 4, end: 6.5 },
      ],
    });
    const vtt = await transcript(org.org, org.keys.write, recordingId, 'language=es&format=vtt');
    expect(vtt.body).toContain('00:00:00.500 --> 00:00:03.250\n<v Speaker 1>El presupuesto para la oficina nueva está aprobado.');
    const srt = await transcript(org.org, org.keys.write, recordingId, 'language=es&format=srt&download=true');
    expect(srt.body).toContain('1\n00:00:00,500 --> 00:00:03,250\nSpeaker 1: El presupuesto para la oficina nueva está aprobado.');
    expect(srt.headers.get('content-disposition')).toMatch(/filename="Office-budget.*es.*\.srt"/);
    const txt = await call(runtime.apiUrl, 'GET', `/api/v1/public/recordings/${recordingId}/transcript?language=es&format=txt`, {
      token: org.keys.member,
    });
    expect(txt.body).toContain('Speaker 1: El presupuesto para la oficina nueva está aprobado.');
    // The transcript's own language is the transcript; a language never translated is 404.
    expect((await transcript(org.org, org.keys.write, recordingId, 'language=en')).body.segments[0].text).toBe(SEGMENTS[0].text);
    expectFailure(await transcript(org.org, org.keys.write, recordingId, 'language=fr'), 404, 'TRANSLATION_NOT_FOUND');
    expectFailure(await transcript(org.org, org.keys.write, recordingId, 'language=klingon'), 400, 'VALIDATION_ERROR');

    const audit = await eventually(
      async () =>
        (
          await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/audit-log?resource_id=${recordingId}`, {
            token: org.keys.write,
          })
        ).body,
      (page) => page.entries?.some((e: { type: string }) => e.type === 'recording.translation_completed'),
    );
    expect(audit.entries.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['recording.translation_queued', 'recording.translation_completed']),
    );
    const delivered = await eventually(
      async () => receiver!.received.map((d) => JSON.parse(d.body)).filter((e) => e.resource.id === recordingId),
      (events) => events.length >= 2,
    );
    expect(delivered.map((e) => e.type).sort()).toEqual(['recording.translation_completed', 'recording.translation_queued']);
    expect(delivered.find((e) => e.type === 'recording.translation_completed').data).toMatchObject({
      translation_id: queued.body.id,
      from_language: 'en',
      to_language: 'es',
      segment_count: 2,
    });
    expect(JSON.stringify(delivered)).not.toContain('presupuesto');
    expect(JSON.stringify(delivered)).not.toContain('budget');
  });

  it('a pair the engine does not translate ends failed with the reason, in translation and translation_error', async () => {
    const org = await setup();
    const recordingId = org.recId('fr');
    expect((await translate(org.org, org.keys.write, recordingId, { to_language: 'fr' })).status).toBe(202);
    const failed = await eventually(() => translationOf(org.org, org.keys.write, recordingId), settled);
    expect(failed.translation).toMatchObject({
      to_language: 'fr',
      processing_status: 'failed',
      error_message: expect.stringMatching(/^Unsupported language pair: en to fr/),
    });
    const listed = await call(runtime.apiUrl, 'GET', `/api/v1/public/recordings?limit=100`, { token: org.keys.member });
    const item = listed.body.data.find((r: { id: string }) => r.id === recordingId);
    expect(item.translation_error).toMatch(/^UNSUPPORTED_LANGUAGE_PAIR: Unsupported language pair: en to fr/);
    expect(item.translation).toMatchObject({ processing_status: 'failed' });
    expectFailure(await transcript(org.org, org.keys.write, recordingId, 'language=fr'), 404, 'TRANSLATION_NOT_FOUND');
  });

  it('the public alias: a personal key translates its own recordings (202 in the envelope); another member’s is 404', async () => {
    const org = await setup();
    const mine = await translatePublic(org.keys.member, org.recId('own'), { to_language: 'es' });
    expect(mine.status).toBe(202);
    expect(mine.body).toMatchObject({ success: true, data: { to_language: 'es', processing_status: 'queued', detected_language: 'en' } });
    expectFailure(await translatePublic(org.keys.member, org.recId('admins'), { to_language: 'es' }), 404, 'RECORDING_NOT_FOUND');
  });

  it('refuses bad input: an unknown code, no body, a recording without a completed transcript, an unknown recording', async () => {
    const org = await setup();
    expectFailure(await translate(org.org, org.keys.write, org.recId('admins'), { to_language: 'xx' }), 400, 'VALIDATION_ERROR');
    expectFailure(await translate(org.org, org.keys.write, org.recId('admins'), { to_language: 'spanish' }), 400, 'VALIDATION_ERROR');
    expectFailure(
      await translate(org.org, org.keys.write, org.recId('admins'), { to_language: 'es', from_language: 'en' }),
      400,
      'VALIDATION_ERROR',
    );
    expectFailure(await translate(org.org, org.keys.write, org.recId('admins')), 400, 'VALIDATION_ERROR');
    expectFailure(await translate(org.org, org.keys.write, org.recId('none'), { to_language: 'es' }), 409, 'TRANSCRIPT_NOT_READY');
    expectFailure(await translate(org.org, org.keys.write, 'rec_nope', { to_language: 'es' }), 404, 'RECORDING_NOT_FOUND');
  });
});
