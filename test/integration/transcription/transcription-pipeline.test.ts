import { call, localDeployment, once } from '../../support/api';
import { eventually } from '../../support/eventually';
import { buildOrg, seedOrg } from '../../support/org-builder';
import { SENTENCE, speechAvailable, spokenSentence, wordsOf } from '../../support/speech';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';

/**
 * The transcription pipeline end to end on the local deployment with the real engine
 * (Moonshine behind the Transcribe stand-in): a recorded LibriVox sentence, uploaded
 * through the upload URL, transcribed automatically (the recorder's auto_transcription is on by
 * default) into speaker turns; a file that is not audio fails with UNSUPPORTED_MEDIA; the events
 * reach the audit log and a webhook endpoint, without the transcript's text.
 */
const { runtime } = localDeployment();
const describeWithEngine = speechAvailable ? describe : describe.skip;

const setup = once(async () => {
  const org = buildOrg({
    label: 'trp',
    keys: {
      member: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
      org: { scopes: ['recordings:read', 'audit:read', 'usage:read', 'webhooks:write', 'webhooks:read'] },
    },
  });
  return seedOrg(org);
});

/** Uploads a file through Create upload URL and its pre-signed PUT, as a client does; answers the recording id. */
async function upload(key: string, body: Buffer, contentType = 'audio/wav', filename = 'speech.wav'): Promise<string> {
  const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
    token: key,
    body: { filename, content_type: contentType, size_bytes: body.length, title: 'Office budget' },
  });
  expect(created.status).toBe(201);
  const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
  const put = await fetch(url, { method: 'PUT', headers, body });
  expect(put.status).toBe(200);
  return recordingId;
}

const getRecording = async (orgId: string, key: string, recordingId: string, query = ''): Promise<any> =>
  (await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/recordings/${recordingId}${query}`, { token: key })).body;

const settled = (recording: { transcript_status?: string; [field: string]: unknown }) =>
  recording.transcript_status === 'completed' || recording.transcript_status === 'failed';

describeWithEngine('the transcription pipeline (upload → queued → Transcribe stand-in → completed)', () => {
  let receiver: Receiver;
  afterAll(async () => receiver?.close());

  it('transcribes an uploaded recording on its own: ready, with speaker turns inside the audio that say the sentence, billed and announced', async () => {
    const org = await setup();
    receiver = await startReceiver();
    const hook = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${org.org}/webhooks`, {
      token: org.keys.org,
      body: {
        url: receiver.url,
        events: ['recording.transcription_queued', 'recording.transcription_completed', 'recording.summary_queued'],
      },
    });
    expect(hook.status).toBe(201);
    const { wav, seconds } = spokenSentence();
    const recordingId = await upload(org.keys.member, wav);

    const done = await eventually(() => getRecording(org.org, org.keys.org, recordingId), settled);
    expect(done).toMatchObject({ state: 'ready', transcript_status: 'completed', transcript_error: '', language: 'en-US' });
    // The length Transcribe's output gives: the end of its last word (docs/transcription.md), within the audio.
    expect(done.duration).toBeGreaterThan(0);
    expect(done.duration).toBeLessThanOrEqual(seconds + 0.05);

    const { transcript, speakers } = await getRecording(org.org, org.keys.org, recordingId, '?include=transcript,speakers');
    expect(transcript.length).toBeGreaterThan(0);
    // One voice: its recorder's (docs/transcript-controls.md), the engine's label kept beside the name.
    expect(speakers).toEqual([
      expect.objectContaining({ label: 'Speaker 1', user_id: org.people.member.id, turn_count: transcript.length }),
    ]);
    for (const segment of transcript) {
      expect(segment.speaker).toBe(speakers[0].name);
      expect(segment.start).toBeGreaterThanOrEqual(0);
      expect(segment.end).toBeLessThanOrEqual(seconds + 0.05);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    }
    // One reader, one turn; the engine hears the recorded sentence word for word.
    expect(transcript.map((segment: { speaker: string }) => segment.speaker)).toEqual([speakers[0].name]);
    expect(wordsOf(transcript.map((s: { text: string }) => s.text).join(' '))).toEqual(wordsOf(SENTENCE));

    // The public list item's transcript summary.
    const listed = await call(runtime.apiUrl, 'GET', '/api/v1/public/recordings', { token: org.keys.member });
    const item = listed.body.data.find((r: { id: string }) => r.id === recordingId);
    expect(item).toMatchObject({
      state: 'ready',
      transcript_status: 'completed',
      transcript: { language: 'en-US', segment_count: transcript.length },
    });

    // Billed: the audio's length rounded up to a whole minute, for the recorder and the organization.
    const usage = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/usage`, { token: org.keys.org });
    expect(usage.body).toMatchObject({
      transcription_minutes: 1,
      allowance: null,
      members: [{ user_id: org.people.member.id, transcription_minutes: 1 }],
    });

    // The audit log and the webhook endpoint, never with the text.
    const audit = await eventually(
      async () =>
        (await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/audit-log?resource_id=${recordingId}`, { token: org.keys.org }))
          .body,
      (page) => page.entries?.some((e: { type: string }) => e.type === 'recording.transcription_completed'),
    );
    expect(audit.entries.map((e: { type: string }) => e.type)).toContain('recording.transcription_queued');
    const deliveries = await eventually(
      async () => receiver.received.map((d) => JSON.parse(d.body)),
      (events) => events.filter((e) => e.resource.id === recordingId).length >= 3,
    );
    const ours = deliveries.filter((e) => e.resource.id === recordingId && e.type.startsWith('recording.transcription_'));
    expect(ours.map((e) => e.type).sort()).toEqual(['recording.transcription_completed', 'recording.transcription_queued']);

    // The completed transcription queued one summary with the built-in template (the organization has no default template).
    const summaries = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/recordings/${recordingId}/summaries`, {
      token: org.keys.org,
    });
    expect(summaries.body.summaries).toEqual([expect.objectContaining({ template_id: null, template_name: 'Standard summary' })]);
    const queuedSummary = deliveries.find((e) => e.resource.id === recordingId && e.type === 'recording.summary_queued');
    expect(queuedSummary.data).toEqual({
      recorded_by: org.people.member.id,
      state: expect.any(String),
      summary_id: summaries.body.summaries[0].id,
      template_id: null,
    });
    expect(ours.find((e) => e.type === 'recording.transcription_completed').data).toMatchObject({
      attempt: 1,
      language: 'en-US',
      billed_minutes: 1,
      segment_count: transcript.length,
    });
    expect(JSON.stringify(ours)).not.toContain(transcript[0].text);
  });

  it('fails a file that is not audio with UNSUPPORTED_MEDIA: ready, with the error, nothing billed', async () => {
    const org = await setup();
    const recordingId = await upload(
      org.keys.member,
      Buffer.from('This is a text file, not audio.\n'.repeat(50)),
      'audio/wav',
      'notes.wav',
    );
    const failed = await eventually(() => getRecording(org.org, org.keys.org, recordingId), settled);
    expect(failed).toMatchObject({ state: 'ready', transcript_status: 'failed' });
    expect(failed.transcript_error).toMatch(/^UNSUPPORTED_MEDIA: /);
  });
});
