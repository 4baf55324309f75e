import { GetObjectCommand } from '@aws-sdk/client-s3';
import { call, expectFailure, idTokenFor, listObjects, localDeployment, localS3, TIMESTAMP } from '../../support/api';
import { eventsInclude } from '../../support/events';
import { eventually } from '../../support/eventually';
import { unzip } from '../../support/member-exports';
import { buildOrg, seedOrg } from '../../support/org-builder';
import { speechAvailable, spokenMeeting } from '../../support/speech';
import { getRecording } from '../../../shared/storage/recordings';

/**
 * The organization's PII redaction over HTTP on the local deployment (docs/transcript-controls.md,
 * "Redaction"): the setting read and set, who may do either, the refusals with nothing written, the
 * audited event; a transcript made before keeps its text; and, with the real engines (Moonshine behind
 * the Transcribe stand-in, which applies ContentRedaction with the service's redactor), synthesized speech
 * of a card number, an email and a phone number transcribed, summarized, translated, searched and
 * exported with none of them anywhere, only [PII]; then transcribed again as en-GB, redacted by the
 * service's redactor at completion. Who may call the routes in general: the access matrix.
 */
const { runtime, db } = localDeployment();
const describeWithEngines = speechAvailable ? describe : describe.skip;

async function redactionOrg(label = 'red') {
  const org = buildOrg({
    label,
    keys: {
      write: { scopes: ['governance:write'] },
      read: { scopes: ['governance:read'] },
      other: { scopes: ['recordings:read', 'recordings:write', 'audit:read'] },
      recorder: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
    },
  });
  await seedOrg(org);
  return { org, path: `/api/v1/organization/${org.org}/redaction` };
}

const api = (method: string, path: string, token: string, body?: unknown) => call(runtime.apiUrl, method, path, { token, body });

const DEFAULT = { pii: 'off', entity_types: ['ALL'], updated_at: null, updated_by: null };

describe('GET and PUT /api/v1/organization/{orgId}/redaction', () => {
  it('reads off with every type until set; owners and governance:write keys set it, admins and governance:read keys read it', async () => {
    const { org, path } = await redactionOrg();
    expect(await api('GET', path, org.keys.read)).toMatchObject({ status: 200, body: DEFAULT });

    const owner = await idTokenFor(org.people.owner);
    const set = await api('PUT', path, owner, { pii: 'redact', entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      pii: 'redact',
      entity_types: ['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE'],
      updated_at: expect.stringMatching(TIMESTAMP),
      updated_by: org.people.owner.id,
    });
    const admin = await idTokenFor(org.people.admin);
    expect((await api('GET', path, admin)).body).toEqual(set.body);

    // A key with governance:write; entity_types left out is ALL.
    const byKey = await api('PUT', path, org.keys.write, { pii: 'redact' });
    expect(byKey.body).toEqual({
      pii: 'redact',
      entity_types: ['ALL'],
      updated_at: expect.stringMatching(TIMESTAMP),
      updated_by: expect.stringMatching(/^key_/),
    });
    expect((await api('GET', path, org.keys.read)).body).toEqual(byKey.body);
    const off = await api('PUT', path, org.keys.write, { pii: 'off', entity_types: ['NAME'] });
    expect(off.body).toMatchObject({ pii: 'off', entity_types: ['NAME'] });
    expect((await api('GET', path, owner)).body).toEqual(off.body);
  });

  it('refuses members and admins a change, members a read, and keys without the scope, changing nothing', async () => {
    const { org, path } = await redactionOrg();
    const body = { pii: 'redact' };
    const member = await idTokenFor(org.people.member);
    const admin = await idTokenFor(org.people.admin);
    expectFailure(await api('PUT', path, member, body), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await api('PUT', path, admin, body), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await api('GET', path, member), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await api('PUT', path, org.keys.read, body), 403, 'INSUFFICIENT_SCOPES');
    expectFailure(await api('GET', path, org.keys.other), 403, 'INSUFFICIENT_SCOPES');
    expectFailure(await api('PUT', path, org.keys.other, body), 403, 'INSUFFICIENT_SCOPES');
    // A personal key is not an organization's.
    expect((await api('PUT', path, org.keys.recorder, body)).status).toBe(403);
    expect((await api('GET', path, org.keys.read)).body).toEqual(DEFAULT);
  });

  it('refuses with 400 VALIDATION_ERROR a mode other than off or redact, an unknown, empty or repeated type, an extra or missing field', async () => {
    const { org, path } = await redactionOrg();
    for (const body of [
      { pii: 'on' },
      { pii: 'REDACT' },
      { pii: true },
      { pii: 'redact', entity_types: ['CREDIT_CARD'] },
      { pii: 'redact', entity_types: ['EMAIL', 'all'] },
      { pii: 'redact', entity_types: [] },
      { pii: 'redact', entity_types: ['EMAIL', 'EMAIL'] },
      { pii: 'redact', entity_types: 'EMAIL' },
      { pii: 'redact', extra: true },
      { entity_types: ['EMAIL'] },
      {},
    ])
      expectFailure(await api('PUT', path, org.keys.write, body), 400, 'VALIDATION_ERROR');
    expect((await api('GET', path, org.keys.read)).body).toEqual(DEFAULT);
  });

  it('is audited as organization.redaction_updated with the mode, the types and the previous mode, never twice for the same setting', async () => {
    const { org, path } = await redactionOrg();
    await api('PUT', path, org.keys.write, { pii: 'redact', entity_types: ['EMAIL', 'PHONE'] });
    const first = await eventsInclude(org.org, ['organization.redaction_updated'], org.org);
    expect(first.filter((event) => event.type === 'organization.redaction_updated')).toEqual([
      expect.objectContaining({
        resource: { type: 'organization', id: org.org },
        data: { pii: 'redact', entity_types: ['EMAIL', 'PHONE'], previous_pii: 'off' },
        actor: { kind: 'api_key', id: expect.stringMatching(/^key_/) },
      }),
    ]);

    // The same setting again says nothing; turned off says it was on.
    await api('PUT', path, org.keys.write, { pii: 'redact', entity_types: ['EMAIL', 'PHONE'] });
    await api('PUT', path, await idTokenFor(org.people.owner), { pii: 'off' });
    const events = await eventually(
      async () =>
        (await eventsInclude(org.org, ['organization.redaction_updated'])).filter((e) => e.type === 'organization.redaction_updated'),
      (found) => found.some((event) => event.data.pii === 'off'),
    );
    expect(events.map((event) => event.data)).toEqual([
      { pii: 'redact', entity_types: ['EMAIL', 'PHONE'], previous_pii: 'off' },
      { pii: 'off', entity_types: ['ALL'], previous_pii: 'redact' },
    ]);
    expect(events[1].actor).toMatchObject({ kind: 'user', id: org.people.owner.id });

    const audit = await eventually(
      async () => (await api('GET', `/api/v1/organization/${org.org}/audit-log?resource_id=${org.org}`, org.keys.other)).body,
      (page) => page.entries?.filter((entry: { type: string }) => entry.type === 'organization.redaction_updated').length === 2,
    );
    const entries = audit.entries.filter((entry: { type: string }) => entry.type === 'organization.redaction_updated');
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry).toMatchObject({ resource: { type: 'organization', id: org.org } });
  });

  it('leaves a transcript completed before it was turned on as it was', async () => {
    const { org, path } = await redactionOrg();
    const id = org.recId('before');
    const said = 'My card number is 4539 1488 0343 6467, email john.smith@example.com.';
    await seedOrg(org, {
      recordings: [
        {
          id,
          org_id: org.org,
          recorded_by: org.people.member.id,
          title: 'Before',
          duration: 8,
          language: 'en-US',
          created_at: '2026-11-16T09:05:00.000Z',
          transcript: [{ speaker: 'Speaker 1', text: said, start: 0.5, end: 7.5 }],
        },
      ],
    });
    expect((await api('PUT', path, org.keys.write, { pii: 'redact' })).status).toBe(200);
    const recording = await api('GET', `/api/v1/organization/${org.org}/recordings/${id}?include=transcript`, org.keys.other);
    // One voice: the recorder's name on the turn.
    expect(recording.body.transcript).toEqual([{ speaker: 'mo member', text: said, start: 0.5, end: 7.5 }]);
    const txt = await api('GET', `/api/v1/organization/${org.org}/recordings/${id}/transcript?format=txt`, org.keys.other);
    expect(String(txt.body)).toContain('john.smith@example.com');
  });
});

/**
 * Flite speaks it; Moonshine hears (measured, redaction off): "My card number is 4539148803436467
 * Email me at john.smith at example.com Call me on 5552345678 I will send the contract by Friday".
 * Sixteen ones after a four ("4111…") come out as 18 or 21 digits, which fail Luhn and are no card:
 * the card number here is varied so that its digits are heard as said.
 */
const SPOKEN =
  'My card number is four five three nine, one four eight eight, zero three four three, six four six seven. ' +
  'Email me at john dot smith at example dot com. Call me on five five five, two three four, five six seven eight. ' +
  'I will send the contract by Friday.';
/** Each entity one [PII] where it was said, the rest as heard. */
const REDACTED = /card number is \[PII\]\W+email me at \[PII\]\W+call me on \[PII\]\W+I will send the contract by Friday/i;

/**
 * What must be nowhere: the recognized forms (digits, the address) and their parts, and the words said.
 * Short enough parts to catch a partial redaction, long enough never to be part of an id or a time.
 */
const PII = ['4539', '1488', '0343', '6467', '5552', '5678', 'john', 'smith', 'example dot', 'four five three', 'five six seven'];
/** In texts made from the transcript (not in a whole answer or file, where the test people's addresses are @example.com). */
const PII_IN_TEXT = [...PII, 'example', '555', '234'];

function expectNoPii(where: string, value: unknown, strings = PII) {
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).toLowerCase();
  for (const pii of strings) if (text.includes(pii)) throw new Error(`${where} holds "${pii}": ${text.slice(0, 600)}`);
}

describeWithEngines('a recording transcribed with redaction on', () => {
  it('keeps the card number, the email and the phone number out of the transcript, summary, translation, search, exports and bucket', async () => {
    const { org, path } = await redactionOrg('rede');
    const base = `/api/v1/organization/${org.org}`;
    expect((await api('PUT', path, await idTokenFor(org.people.owner), { pii: 'redact' })).status).toBe(200);

    // The member uploads the call with their personal key; their conversation language is English (en-US).
    const { wav } = spokenMeeting(SPOKEN);
    const created = await call(runtime.apiUrl, 'POST', '/api/v1/public/recordings/upload-url', {
      token: org.keys.recorder,
      body: { filename: 'call.wav', content_type: 'audio/wav', size_bytes: wav.length, title: 'Card call' },
    });
    expect(created.status).toBe(201);
    const { recording_id: recordingId, upload_url: url, headers } = created.body.data;
    expect((await fetch(url, { method: 'PUT', headers, body: wav })).status).toBe(200);
    const recordings = `${base}/recordings/${recordingId}`;

    // Transcribed, then summarized on its own.
    const summaries = await eventually(
      async () => (await api('GET', `${recordings}/summaries`, org.keys.other)).body,
      (body) => ['completed', 'failed'].includes(body.summaries?.[0]?.status),
      { alsoWaitingMs: 45_000 },
    );
    expect(summaries.summaries[0]).toMatchObject({ status: 'completed', error: null });
    const recording = (await api('GET', `${recordings}?include=transcript,summary,action_items`, org.keys.other)).body;
    expect(recording).toMatchObject({ state: 'ready', transcript_status: 'completed', transcript_error: '', language: 'en-US' });
    const heard = recording.transcript.map((turn: { text: string }) => turn.text).join(' ');
    // As stored here: "My card number is [PII]. Email me at [PII]. Call me on [PII]. I will send the contract by Friday."
    expect(heard).toMatch(REDACTED);
    expectNoPii('Get recording', recording);
    expectNoPii('the transcript', recording.transcript, PII_IN_TEXT);
    expectNoPii('the summary', recording.summary.markdown, PII_IN_TEXT);
    expectNoPii(
      'the action items',
      recording.action_items.map((item: { text: string }) => item.text),
      PII_IN_TEXT,
    );
    expectNoPii('the summaries', summaries);
    expect(summaries.summaries[0].markdown).toMatch(/contract/i);
    // The en-US job asked the stand-in's ContentRedaction: the attempt says Transcribe redacted it.
    expect((await getRecording(db, org.org, recordingId))?.transcription?.redaction).toEqual({
      engine: 'transcribe',
      entity_types: expect.arrayContaining(['CREDIT_DEBIT_NUMBER', 'EMAIL', 'PHONE', 'NAME']),
    });

    for (const format of ['json', 'txt', 'vtt', 'srt']) {
      const res = await api('GET', `${recordings}/transcript?format=${format}`, org.keys.other);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).toContain('[PII]');
      expectNoPii(`the ${format} transcript`, res.body, format === 'json' ? PII : PII_IN_TEXT);
    }

    // Translated to Spanish from the stored text.
    expect((await api('POST', `${recordings}/translations`, org.keys.other, { to_language: 'es' })).status).toBe(202);
    const translated = await eventually(
      async () => (await api('GET', `${recordings}?include=translation`, org.keys.other)).body,
      (body) => ['completed', 'failed'].includes(body.translation?.processing_status),
      { alsoWaitingMs: 15_000 },
    );
    expect(translated.translation).toMatchObject({ to_language: 'es', processing_status: 'completed' });
    const spanish = await api('GET', `${recordings}/transcript?format=txt&language=es`, org.keys.other);
    expect(String(spanish.body)).toMatch(/contrato/i);
    expect(String(spanish.body)).toContain('PII');
    expectNoPii('the Spanish text', spanish.body, PII_IN_TEXT);
    for (const format of ['json', 'txt', 'vtt', 'srt'])
      expectNoPii(
        `the ${format} translation`,
        (await api('GET', `${recordings}/transcript?format=${format}&language=es`, org.keys.other)).body,
      );

    // Search finds the recording by what was said, never by what was redacted.
    const search = (q: string) => api('GET', `${base}/search?q=${encodeURIComponent(q)}`, org.keys.other);
    const found = await eventually(
      () => search('contract'),
      (res) => res.status === 200 && res.body.results.some((result: { recording_id: string }) => result.recording_id === recordingId),
    );
    expectNoPii('a search result', found.body);
    for (const result of found.body.results)
      expectNoPii(
        'the matches',
        result.matches.map((match: { text: string }) => match.text),
        PII_IN_TEXT,
      );
    for (const q of ['smith', 'john', 'example', 'example.com', '4539', '4539148803436467', '5678', '5552345678', 'john.smith']) {
      const res = await search(q);
      expect(res.status).toBe(200);
      expect({ q, results: res.body.results }).toEqual({ q, results: [] });
    }

    // The member's export holds the stored text only (the audio, not redacted, is left out here).
    const owner = await idTokenFor(org.people.owner);
    const exportPath = `${base}/users/${org.people.member.id}/exports`;
    const started = await api('POST', exportPath, owner, {});
    expect(started.status).toBe(202);
    const done = await eventually(
      () => api('GET', `${exportPath}/${started.body.data.id}`, owner),
      (res) => res.status === 200 && ['completed', 'failed'].includes(res.body.data.status),
    );
    expect(done.body.data.status).toBe('completed');
    const zip = Buffer.from(await (await fetch(String(done.body.data.download_url))).arrayBuffer());
    const files = unzip(zip);
    expect([...files.keys()].some((name) => name.includes(recordingId))).toBe(true);
    for (const [name, bytes] of files) expectNoPii(`the export's ${name}`, bytes.toString('utf8'));
    expect([...files.values()].some((bytes) => bytes.toString('utf8').includes('[PII]'))).toBe(true);

    // Nothing in the bucket under the recording but its audio: Transcribe's output is gone, and held only [PII].
    const stored = await getRecording(db, org.org, recordingId);
    const objects = await listObjects(`recordings/${org.org}/${recordingId}/`);
    expect(objects.map((object) => object.key)).toContain(stored!.upload!.s3_key);
    const { s3, bucket } = localS3();
    for (const object of objects.filter((entry) => entry.key !== stored!.upload!.s3_key)) {
      const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.key }));
      expectNoPii(`the object ${object.key}`, await body.Body!.transformToString());
    }
    expect(objects.filter((object) => object.key.includes('/transcribe/'))).toEqual([]);

    // Transcribed again as en-GB: the stand-in is asked for no ContentRedaction, the service's redactor redacts at completion.
    const again = await api('POST', `${recordings}/transcribe`, org.keys.other, { language: 'en-GB' });
    expect(again.status).toBe(202);
    const rerun = await eventually(
      () => getRecording(db, org.org, recordingId, { consistent: true }),
      (item) => item?.transcription?.attempt === 2 && ['completed', 'failed'].includes(item.transcription.status),
      { alsoWaitingMs: 45_000 },
    );
    expect(rerun?.transcription).toMatchObject({ status: 'completed', redaction: { engine: 'service', entity_types: expect.any(Array) } });
    expect(rerun?.transcription?.redaction?.entity_types).toHaveLength(11);
    const british = (await api('GET', `${recordings}?include=transcript`, org.keys.other)).body;
    expect(british).toMatchObject({ language: 'en-GB', transcript_status: 'completed' });
    expect(british.transcript.map((turn: { text: string }) => turn.text).join(' ')).toMatch(REDACTED);
    expectNoPii('the en-GB transcript', british.transcript, PII_IN_TEXT);
    const after = await listObjects(`recordings/${org.org}/${recordingId}/`);
    expect(after.filter((object) => object.key.includes('/transcribe/'))).toEqual([]);
  });
});
