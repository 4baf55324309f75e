import { call, localDeployment, once } from '../support/api';
import { eventually } from '../support/eventually';
import { buildOrg, seedOrg } from '../support/org-builder';
import { concatenated, normalizedWords, samplesOf, silence, testSet, wavOf } from '../support/recorded-speech';
import { speechAvailable, spokenMeeting } from '../support/speech';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/**
 * What the product exists for, end to end on the local deployment with the real offline engines
 * (Moonshine behind the Transcribe stand-in, the extractive summarizer behind the Bedrock
 * stand-in, Apertium behind the Translate stand-in), as a client sees it over HTTP: a recording
 * of two voices is uploaded (a LibriVox reader, recorded, whose words are asserted, then the
 * meeting's action items spoken by Flite, since no recording in a package says them), transcribed
 * into two speakers, summarized on its own with the organization's default
 * template (sections in order, the action item "Maria will send the contract by Friday" assigned
 * to the member named Maria, due the Friday after the recording), translated to Spanish and
 * exported; the webhook endpoint and the audit log receive the events without any text; deleting
 * the template keeps the summary.
 */
const { runtime } = localDeployment();
const describeWithEngines = speechAvailable ? describe : describe.skip;

const setup = once(async () => {
  const org = buildOrg({
    label: 'walk',
    people: {
      owner: { role: 'owner', first: 'olga' },
      recorder: { role: 'member', displayName: 'Sam Recorder', email: 'sam.recorder@example.com' },
      maria: { role: 'member', displayName: 'Maria Lopez', email: 'maria.lopez@example.com' },
    },
    keys: {
      recorder: { scopes: ['recordings:read', 'recordings:write'], user: 'recorder' },
      org: {
        scopes: [
          'recordings:read',
          'recordings:write',
          'audit:read',
          'webhooks:write',
          'webhooks:read',
          'templates:read',
          'templates:write',
          'users:read',
          'users:write',
        ],
      },
    },
  });
  return seedOrg(org);
});

/** The Friday on or after the day after `iso` (YYYY-MM-DD): "by Friday" said on a Friday means the next one. */
function fridayAfter(iso: string): string {
  const day = new Date(`${iso.slice(0, 10)}T00:00:00.000Z`);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() !== 5);
  return day.toISOString().slice(0, 10);
}

const api = (method: string, path: string, token: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });

describeWithEngines('upload → transcript → automatic summary → action items → translation → exports', () => {
  let receiver: Receiver;
  afterAll(async () => receiver?.close());

  it('makes a meeting into a summary of the default template, an assigned action item and a Spanish transcript, announced without text', async () => {
    const org = await setup();
    const base = `/api/v1/organization/${org.org}`;
    receiver = await startReceiver();
    const events = ['recording.summary_queued', 'recording.summary_completed', 'action_item.created', 'recording.translation_completed'];
    expect((await api('POST', `${base}/webhooks`, org.keys.org, { url: receiver.url, events })).status).toBe(201);

    // The organization's default template, and the recorder's wish for tasks.
    const template = await api('POST', `${base}/templates`, org.keys.org, {
      name: 'Team meeting',
      sections: [
        { title: 'Decisions', prompt: 'List the decisions that were made, such as approvals and hires.' },
        { title: 'Budget', prompt: 'What was said about the budget and the office?' },
        { title: 'Action items', prompt: 'List the action items: who will do what, by when.' },
      ],
      is_default: true,
    });
    expect(template.status).toBe(201);
    const settings = await api('PATCH', `${base}/users/${org.people.recorder.id}/settings`, org.keys.org, {
      settings: { auto_add_tasks_from_summaries: true },
    });
    expect(settings.status).toBe(200);

    // The recorder uploads the meeting with their personal key, as a client does: a recorded reader, a pause, then Flite.
    const reader = testSet().find((clip) => clip.reference === 'he might even have been made amiable himself')!;
    const wav = wavOf(concatenated([samplesOf(reader), silence(2), spokenMeeting().samples]));
    const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
      token: org.keys.recorder,
      body: { filename: 'meeting.wav', content_type: 'audio/wav', size_bytes: wav.length, title: 'Team meeting' },
    });
    expect(created.status).toBe(201);
    const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
    expect((await fetch(url, { method: 'PUT', headers, body: wav })).status).toBe(200);
    const recordings = `${base}/recordings/${recordingId}`;

    // Transcribed, then summarized on its own with the default template.
    const summaries = await eventually(
      async () => (await api('GET', `${recordings}/summaries`, org.keys.org)).body,
      (body) => body.summaries?.[0]?.status === 'completed' || body.summaries?.[0]?.status === 'failed',
      // Transcription (about 15 s of speech, the model loaded once), then the summary, one after the other.
      { alsoWaitingMs: 30_000 },
    );
    expect(summaries.summaries).toHaveLength(1);
    const [summary] = summaries.summaries;
    expect(summary).toMatchObject({
      template_id: template.body.id,
      template_name: 'Team meeting',
      status: 'completed',
      error: null,
      model: 'local-extractive',
      language: 'English',
    });
    expect(summary.sections.map((section: { title: string }) => section.title)).toEqual(['Decisions', 'Budget', 'Action items']);
    expect(summary.markdown).toContain('Decisions');
    expect(summary.usage.input_tokens).toBeGreaterThan(0);

    // The transcript: the recorded reader's words as said, then the meeting, two voices as two speakers.
    const recording = (await api('GET', `${recordings}?include=summary,action_items,transcript`, org.keys.org)).body;
    expect(recording.transcript.map((turn: { speaker: string }) => turn.speaker)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(normalizedWords(recording.transcript[0].text)).toEqual(normalizedWords(reader.reference));

    // The action item of "Maria will send the contract by Friday": Maria's, due the Friday after the recording.
    const item = summary.action_items.find((entry: { text: string }) => /contract/i.test(entry.text));
    expect(item).toMatchObject({ assignee_user_id: org.people.maria.id, due_date: fridayAfter(recording.created_at), completed: false });
    expect(item.timestamp).toEqual(expect.any(Number));
    expect(recording.summary).toMatchObject({ template_id: template.body.id, template_name: 'Team meeting', markdown: summary.markdown });
    expect(recording.action_items).toEqual(summary.action_items);

    // Translated to Spanish by Apertium: the transcript in every export format, and a language not translated is a 404.
    const asked = await api('POST', `${recordings}/translations`, org.keys.org, { to_language: 'es' });
    expect(asked.status).toBe(202);
    const translated = await eventually(
      async () => (await api('GET', `${recordings}?include=translation`, org.keys.org)).body,
      (body) => body.translation?.processing_status === 'completed' || body.translation?.processing_status === 'failed',
      { alsoWaitingMs: 15_000 },
    );
    expect(translated.translation).toMatchObject({ to_language: 'es', processing_status: 'completed', error_message: '' });
    const spanish = await call(runtime.apiUrl, 'GET', `${recordings}/transcript?format=txt&language=es`, { token: org.keys.org });
    expect(spanish.status).toBe(200);
    // Apertium's Spanish of the recorded sentence ("He might even have been made amiable himself").
    expect(String(spanish.body)).toMatch(/podría haber sido hecho amable/i);
    expect(String(spanish.body)).toMatch(/contrato/i);
    for (const format of ['json', 'vtt', 'srt'])
      expect(
        (await call(runtime.apiUrl, 'GET', `${recordings}/transcript?format=${format}&language=es`, { token: org.keys.org })).status,
      ).toBe(200);
    const french = await call(runtime.apiUrl, 'GET', `${recordings}/transcript?format=txt&language=fr`, { token: org.keys.org });
    expect(french.status).toBe(404);
    expect(french.body.error).toBe('TRANSLATION_NOT_FOUND');

    // The events reached the webhook endpoint and the audit log, ids and statuses only.
    const deliveries = await eventually(
      async () => receiver.received.map((delivery) => JSON.parse(delivery.body)),
      (received) => events.every((type) => received.some((event: { type: string }) => event.type === type)),
    );
    const actionEvent = deliveries.find((event: { type: string }) => event.type === 'action_item.created');
    expect(actionEvent.data).toMatchObject({ summary_id: summary.id, assignee_user_id: org.people.maria.id, due_date: item.due_date });
    const delivered = JSON.stringify(deliveries);
    for (const text of ['contract', 'budget', 'Maria', 'contrato']) expect(delivered).not.toContain(text);
    const audit = await eventually(
      async () => (await api('GET', `${base}/audit-log?resource_id=${recordingId}`, org.keys.org)).body,
      (page) => page.entries?.some((entry: { type: string }) => entry.type === 'recording.translation_completed'),
    );
    expect(audit.entries.map((entry: { type: string }) => entry.type)).toEqual(
      expect.arrayContaining(['recording.summary_queued', 'recording.summary_completed', 'recording.translation_completed']),
    );

    // Deleting the template keeps the summary, with the template's name.
    expect((await api('DELETE', `${base}/templates/${template.body.id}`, org.keys.org)).status).toBe(200);
    const kept = await api('GET', `${recordings}/summaries/${summary.id}`, org.keys.org);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      id: summary.id,
      template_id: template.body.id,
      template_name: 'Team meeting',
      markdown: summary.markdown,
    });
  });
});
