import { call, expectFailure, idTokenFor, localDeployment, once, type ApiResponse } from '../../support/api';
import { eventually } from '../../support/eventually';
import { eventsInclude, publishedEvents } from '../../support/events';
import { buildOrg, noAutoTranscription, seedOrg } from '../../support/org-builder';

/**
 * A recording's speakers end to end on the local deployment (docs/transcript-controls.md,
 * "Speakers"): Get recording with `include=speakers` (a fixture's transcript, stored before
 * speakers were, measured when read; a single voice is the recorder's), Update speakers on both
 * hosts and every refusal, the names in the turns of Get recording and Get transcript in each
 * format, the event without names, an action item's assignee and a summary written after, a
 * search's turns and a translation read with the names.
 */
const { runtime } = localDeployment();

const TWO_VOICES = [
  { speaker: 'Speaker 1', text: 'Good morning, this is the weekly review.', start: 0.1, end: 2.35 },
  { speaker: 'Speaker 2', text: 'The quarterly budget for the harbour office is approved.', start: 2.5, end: 5.2 },
  { speaker: 'Speaker 1', text: 'Thank you all.', start: 5.3, end: 6.425 },
];
/** Speaker 1: 2.25 + 1.125 seconds in 2 turns; Speaker 2: 2.7 in 1. */
const TWO_VOICES_TALK = { 'Speaker 1': [3.375, 2], 'Speaker 2': [2.7, 1] } as const;
const ONE_VOICE = [
  { speaker: 'Speaker 1', text: 'A note to myself about the roadmap.', start: 0, end: 3.5 },
  { speaker: 'Speaker 1', text: 'And one more thing.', start: 4, end: 5.25 },
];

const setup = once(async () => {
  const org = buildOrg({
    label: 'spk',
    people: {
      owner: { role: 'owner', first: 'olga', displayName: 'Olga Strand' },
      admin: { role: 'admin', first: 'adam', displayName: 'Adam Berg' },
      member: { role: 'member', first: 'mia', displayName: 'Mia Lind' },
      viewer: { role: 'viewer', first: 'vic', displayName: 'Vic Holm' },
      removed: { role: 'member', status: 'removed', first: 'rex', displayName: 'Rex Gone' },
      pending: { role: 'member', status: 'pending', first: 'pat', displayName: 'Pat Waiting' },
    },
    keys: {
      write: { scopes: ['recordings:read', 'recordings:write'] },
      read: { scopes: ['recordings:read'] },
      personal: { scopes: ['recordings:read', 'recordings:write'], user: 'member' },
    },
  });
  const other = buildOrg({ label: 'spk_other' });
  const recording = (name: string, fields: Record<string, unknown> = {}) => ({
    id: org.recId(name),
    org_id: org.org,
    recorded_by: org.people.member.id,
    title: `Weekly review ${name}`,
    duration: 7,
    language: 'en-US',
    created_at: '2026-11-16T09:05:00.000Z',
    transcript: TWO_VOICES,
    ...fields,
  });
  await Promise.all([
    seedOrg(org, {
      // Only active members have settings: the removed and the pending member are left out.
      settings: noAutoTranscription(org).settings!.filter(
        (entry) => ![org.people.removed.id, org.people.pending.id].includes(entry.user_id),
      ),
      recordings: [
        recording('two'),
        recording('solo', { transcript: ONE_VOICE }),
        recording('none', { transcript: undefined }),
        recording('trashed', { deleted_at: '2026-11-17T00:00:00.000Z' }),
        recording('named'),
        recording('public'),
        recording('own'),
        recording('admins', { recorded_by: org.people.admin.id }),
        recording('refused'),
        recording('events'),
        recording('items', { action_items: [{ id: `act_deck_${org.id}`, text: 'Send the deck', assignee: 'Speaker 2' }] }),
        recording('summary', {
          transcript: [
            { speaker: 'Speaker 1', text: 'We agreed on the new price list.', start: 0, end: 3 },
            { speaker: 'Speaker 2', text: 'I will send the contract by Friday.', start: 3.5, end: 6 },
          ],
        }),
        recording('search', {
          transcript: [
            { speaker: 'Speaker 1', text: 'Welcome to the planning call.', start: 0, end: 2 },
            { speaker: 'Speaker 2', text: 'The zeppelin hangar needs a new roof.', start: 2.5, end: 5 },
          ],
        }),
        recording('translate'),
      ],
    }),
    seedOrg(other),
  ]);
  return { org, other };
});

type Org = Awaited<ReturnType<typeof setup>>['org'];
const base = (org: Org) => `/api/v1/organization/${org.org}/recordings`;
const getRec = (org: Org, id: string, query = '', token = org.keys.write) =>
  call(runtime.apiUrl, 'GET', `${base(org)}/${id}${query ? `?${query}` : ''}`, { token });
const name = (org: Org, id: string, body: unknown, token = org.keys.write) =>
  call(runtime.apiUrl, 'PATCH', `${base(org)}/${id}/speakers`, { token, body });
const namePublic = (token: string, id: string, body: unknown) =>
  call(runtime.apiUrl, 'PATCH', `/api/v1/public/recordings/${id}/speakers`, { token, body });
const transcript = (org: Org, id: string, query = '') =>
  call(runtime.apiUrl, 'GET', `${base(org)}/${id}/transcript${query ? `?${query}` : ''}`, { token: org.keys.write });
const speaker = (label: keyof typeof TWO_VOICES_TALK, name: string, userId: string | null = null) => ({
  label,
  name,
  user_id: userId,
  talk_time_seconds: TWO_VOICES_TALK[label][0],
  turn_count: TWO_VOICES_TALK[label][1],
});
const ok = (res: ApiResponse) => {
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}?include=speakers', () => {
  it('lists the speakers in order of first appearance, each named by its label, with talk time and turns', async () => {
    const { org } = await setup();
    const res = await getRec(org, org.recId('two'), 'include=speakers');
    expect(res.status).toBe(200);
    expect(res.body.speakers).toEqual([speaker('Speaker 1', 'Speaker 1'), speaker('Speaker 2', 'Speaker 2')]);
    // Nothing named: the turns keep their labels.
    expect((await getRec(org, org.recId('two'), 'include=transcript')).body.transcript).toEqual(TWO_VOICES);
  });

  it("a transcript of a single voice is the recorder's: their display name and id", async () => {
    const { org } = await setup();
    const res = await getRec(org, org.recId('solo'), 'include=speakers,transcript');
    expect(res.body.speakers).toEqual([
      { label: 'Speaker 1', name: 'Mia Lind', user_id: org.people.member.id, talk_time_seconds: 4.75, turn_count: 2 },
    ]);
    expect(res.body.transcript.map((turn: { speaker: string }) => turn.speaker)).toEqual(['Mia Lind', 'Mia Lind']);
    // Get transcript shows the same speakers as Get recording.
    const json = ok(await transcript(org, org.recId('solo')));
    expect(json.speakers).toEqual(res.body.speakers);
    expect(json.segments.map((turn: { speaker: string }) => turn.speaker)).toEqual(['Mia Lind', 'Mia Lind']);
  });

  it('is null without a transcript, absent unless asked for; transcript_vocabulary is always there', async () => {
    const { org } = await setup();
    const none = await getRec(org, org.recId('none'), 'include=speakers');
    expect(none.status).toBe(200);
    expect(none.body.speakers).toBeNull();
    const plain = await getRec(org, org.recId('two'));
    expect(plain.body).not.toHaveProperty('speakers');
    expect(plain.body.transcript_vocabulary).toBeNull();
    expect(none.body.transcript_vocabulary).toBeNull();
  });
});

describe('PATCH /api/v1/organization/{orgId}/recordings/{recordingId}/speakers (and the public alias)', () => {
  it('names a speaker as a member, by a name, and back to its label; every reader shows the names', async () => {
    const { org } = await setup();
    const id = org.recId('named');

    const asMember = await name(org, id, { speakers: [{ label: 'Speaker 1', user_id: org.people.admin.id }] });
    expect(asMember.status).toBe(200);
    expect(asMember.body).toEqual({
      recording_id: id,
      speakers: [speaker('Speaker 1', 'Adam Berg', org.people.admin.id), speaker('Speaker 2', 'Speaker 2')],
    });

    const byName = ok(await name(org, id, { speakers: [{ label: 'Speaker 2', name: '  Client Co ' }] }));
    // Speakers not listed keep their names; the name is trimmed.
    expect(byName.speakers).toEqual([speaker('Speaker 1', 'Adam Berg', org.people.admin.id), speaker('Speaker 2', 'Client Co')]);
    expect(ok(await getRec(org, id, 'include=speakers')).speakers).toEqual(byName.speakers);

    const turns = ok(await getRec(org, id, 'include=transcript')).transcript;
    expect(turns).toEqual([
      { ...TWO_VOICES[0], speaker: 'Adam Berg' },
      { ...TWO_VOICES[1], speaker: 'Client Co' },
      { ...TWO_VOICES[2], speaker: 'Adam Berg' },
    ]);

    const json = ok(await transcript(org, id));
    expect(json).toEqual({ recording_id: id, language: 'en-US', text: expect.any(String), segments: turns, speakers: byName.speakers });
    const vtt = (await transcript(org, id, 'format=vtt')).body as string;
    expect(vtt).toContain('00:00:00.100 --> 00:00:02.350\n<v Adam Berg>Good morning, this is the weekly review.');
    expect(vtt).toContain('<v Client Co>The quarterly budget');
    expect(vtt).not.toContain('Speaker ');
    const srt = (await transcript(org, id, 'format=srt')).body as string;
    expect(srt).toContain('1\n00:00:00,100 --> 00:00:02,350\nAdam Berg: Good morning, this is the weekly review.');
    expect(srt).toContain('Client Co: The quarterly budget');
    const txt = (await transcript(org, id, 'format=txt')).body as string;
    expect(txt).toBe(
      'Adam Berg: Good morning, this is the weekly review.\nClient Co: The quarterly budget for the harbour office is approved.\nAdam Berg: Thank you all.\n',
    );

    const back = ok(await name(org, id, { speakers: [{ label: 'Speaker 1', name: null }] }));
    expect(back.speakers).toEqual([speaker('Speaker 1', 'Speaker 1'), speaker('Speaker 2', 'Client Co')]);
    expect(ok(await getRec(org, id, 'include=transcript')).transcript.map((turn: { speaker: string }) => turn.speaker)).toEqual([
      'Speaker 1',
      'Client Co',
      'Speaker 1',
    ]);
  });

  it("a personal key names its member's own recordings' speakers, in the envelope; another member's is 404", async () => {
    const { org } = await setup();
    const res = await namePublic(org.keys.personal, org.recId('public'), {
      speakers: [
        { label: 'Speaker 1', user_id: org.people.member.id },
        { label: 'Speaker 2', name: 'Visitor' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        recording_id: org.recId('public'),
        speakers: [speaker('Speaker 1', 'Mia Lind', org.people.member.id), speaker('Speaker 2', 'Visitor')],
      },
    });
    const before = ok(await getRec(org, org.recId('admins'), 'include=speakers'));
    expectFailure(
      await namePublic(org.keys.personal, org.recId('admins'), { speakers: [{ label: 'Speaker 1', name: 'X' }] }),
      404,
      'RECORDING_NOT_FOUND',
    );
    expect(ok(await getRec(org, org.recId('admins'), 'include=speakers'))).toEqual(before);
  });

  it("members name their own recordings' speakers; another's is 403 INSUFFICIENT_ROLE; viewers and read-only keys are refused", async () => {
    const { org } = await setup();
    const member = await idTokenFor(org.people.member);
    const own = await name(org, org.recId('own'), { speakers: [{ label: 'Speaker 2', name: 'Guest' }] }, member);
    expect(own.status).toBe(200);
    expect(own.body.speakers[1]).toMatchObject({ label: 'Speaker 2', name: 'Guest', user_id: null });

    const before = ok(await getRec(org, org.recId('admins'), 'include=speakers'));
    const body = { speakers: [{ label: 'Speaker 2', name: 'Guest' }] };
    expectFailure(await name(org, org.recId('admins'), body, member), 403, 'INSUFFICIENT_ROLE');
    expectFailure(await name(org, org.recId('admins'), body, org.keys.read), 403, 'INSUFFICIENT_SCOPES');
    expect((await name(org, org.recId('admins'), body, await idTokenFor(org.people.viewer))).status).toBe(403);
    expect(ok(await getRec(org, org.recId('admins'), 'include=speakers'))).toEqual(before);
    // An admin names anyone's.
    expect((await name(org, org.recId('admins'), body, await idTokenFor(org.people.admin))).status).toBe(200);
  });

  it('400 INVALID_SPEAKERS for an unknown label, a label named twice, and a user who is not an active member; nothing written', async () => {
    const { org, other } = await setup();
    const id = org.recId('refused');
    const before = ok(await getRec(org, id, 'include=speakers,transcript'));
    for (const speakers of [
      [{ label: 'Speaker 3', name: 'Nobody' }],
      [{ label: 'speaker 1', name: 'Case matters' }],
      [
        { label: 'Speaker 1', name: 'One' },
        { label: 'Speaker 1', name: 'Two' },
      ],
      [{ label: 'Speaker 1', user_id: org.people.removed.id }],
      [{ label: 'Speaker 1', user_id: org.people.pending.id }],
      [{ label: 'Speaker 1', user_id: `usr_ghost_${org.id}` }],
      [{ label: 'Speaker 1', user_id: other.people.member.id }],
      // One bad entry refuses the whole request.
      [
        { label: 'Speaker 1', name: 'Fine' },
        { label: 'Speaker 9', name: 'Not fine' },
      ],
    ]) {
      const res = await name(org, id, { speakers });
      expect({ speakers, status: res.status, error: res.body.error }).toEqual({ speakers, status: 400, error: 'INVALID_SPEAKERS' });
    }
    // The details name each entry.
    const both = await name(org, id, {
      speakers: [
        { label: 'Speaker 7', name: 'X' },
        { label: 'Speaker 2', user_id: org.people.removed.id },
      ],
    });
    expect(JSON.stringify(both.body)).toContain('speakers[0].label');
    expect(JSON.stringify(both.body)).toContain('speakers[1].user_id');
    expect(ok(await getRec(org, id, 'include=speakers,transcript'))).toEqual(before);
  });

  it('400 VALIDATION_ERROR for a body not of the schema; nothing written', async () => {
    const { org } = await setup();
    const id = org.recId('refused');
    const before = ok(await getRec(org, id, 'include=speakers'));
    for (const body of [
      { speakers: [{ label: 'Speaker 1', user_id: org.people.admin.id, name: 'Both' }] },
      { speakers: [] },
      {},
      { speakers: [{ label: 'Speaker 1', name: 'x'.repeat(101) }] },
      { speakers: [{ label: 'Speaker 1', name: '   ' }] },
      { speakers: [{ label: 'Speaker 1' }] },
      { speakers: [{ label: '', name: 'Empty label' }] },
      { speakers: [{ label: 'Speaker 1', name: 'Fine', extra: true }] },
      { speakers: [{ label: 'Speaker 1', name: 'Fine' }], extra: true },
      { speakers: [{ label: 'Speaker 1', user_id: 'not an id' }] },
      { speakers: 'Speaker 1' },
    ]) {
      const res = await name(org, id, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'VALIDATION_ERROR' });
    }
    expect(ok(await getRec(org, id, 'include=speakers'))).toEqual(before);
    // 100 characters is a name.
    expect((await name(org, id, { speakers: [{ label: 'Speaker 1', name: 'y'.repeat(100) }] })).body.speakers[0].name).toBe(
      'y'.repeat(100),
    );
  });

  it('404 TRANSCRIPT_NOT_FOUND without a transcript; RECORDING_NOT_FOUND for unknown, trashed and other organizations’ recordings', async () => {
    const { org, other } = await setup();
    const body = { speakers: [{ label: 'Speaker 1', name: 'Host' }] };
    const before = ok(await getRec(org, org.recId('none')));
    expectFailure(await name(org, org.recId('none'), body), 404, 'TRANSCRIPT_NOT_FOUND');
    expect(ok(await getRec(org, org.recId('none')))).toEqual(before);
    for (const id of [`rec_unknown_${org.id}`, org.recId('trashed'), other.recId('two')])
      expectFailure(await name(org, id, body), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await namePublic(org.keys.personal, `rec_unknown_${org.id}`, body), 404, 'RECORDING_NOT_FOUND');
  });

  it('emits recording.speakers_updated with the labels and member ids of the speakers whose naming changed, never a name', async () => {
    const { org } = await setup();
    const id = org.recId('events');
    const named = () => publishedEvents(org.org).filter((event) => event.type === 'recording.speakers_updated' && event.resource.id === id);

    ok(await name(org, id, { speakers: [{ label: 'Speaker 2', name: 'Secret Visitor' }] }));
    await eventsInclude(org.org, ['recording.speakers_updated'], id);
    const [first] = named();
    expect(first).toMatchObject({
      resource: { type: 'recording', id },
      actor: { kind: 'api_key', id: expect.any(String) },
      data: { speakers: [{ label: 'Speaker 2', user_id: null }] },
    });
    expect(JSON.stringify(first)).not.toContain('Secret Visitor');

    // The same naming again writes nothing and says nothing; the next change is the second event.
    const same = ok(await name(org, id, { speakers: [{ label: 'Speaker 2', name: 'Secret Visitor' }] }));
    expect(same.speakers[1].name).toBe('Secret Visitor');
    ok(await name(org, id, { speakers: [{ label: 'Speaker 1', user_id: org.people.owner.id }] }));
    const events = await eventually(
      async () => named(),
      (found) => found.length >= 2,
    );
    expect(events).toHaveLength(2);
    expect(events[1].data.speakers).toEqual([{ label: 'Speaker 1', user_id: org.people.owner.id }]);
    expect(JSON.stringify(events)).not.toMatch(/Secret Visitor|Olga Strand/);
  });
});

describe('names beyond the transcript', () => {
  it('an action item assigned to a label shows the name and the member it was named as', async () => {
    const { org } = await setup();
    const id = org.recId('items');
    const before = ok(await getRec(org, id, 'include=action_items')).action_items;
    expect(before[0]).toMatchObject({ text: 'Send the deck', assignee: 'Speaker 2', assignee_user_id: null });
    ok(await name(org, id, { speakers: [{ label: 'Speaker 2', user_id: org.people.owner.id }] }));
    const after = ok(await getRec(org, id, 'include=action_items')).action_items;
    expect(after).toEqual([{ ...before[0], assignee: 'Olga Strand', assignee_user_id: org.people.owner.id }]);
  });

  it('a summary written after the naming gives the named member the action item they said they would do', async () => {
    const { org } = await setup();
    const id = org.recId('summary');
    ok(await name(org, id, { speakers: [{ label: 'Speaker 2', user_id: org.people.admin.id }] }));
    const queued = await call(runtime.apiUrl, 'POST', `${base(org)}/${id}/summaries`, { token: org.keys.write, body: {} });
    expect(queued.status).toBe(202);
    const done = await eventually(
      () => call(runtime.apiUrl, 'GET', `${base(org)}/${id}/summaries/${queued.body.id}`, { token: org.keys.write }),
      (res) => res.body?.status === 'completed' || res.body?.status === 'failed',
    );
    expect(done.body.status).toBe('completed');
    const item = done.body.action_items.find((entry: { text: string }) => /contract/i.test(entry.text));
    expect(item).toMatchObject({ assignee: 'Adam Berg', assignee_user_id: org.people.admin.id });
    const shown = ok(await getRec(org, id, 'include=action_items')).action_items;
    expect(shown.find((entry: { text: string }) => /contract/i.test(entry.text))).toMatchObject({
      assignee: 'Adam Berg',
      assignee_user_id: org.people.admin.id,
    });
  });

  it("search answers the turn with the speaker's name once the recording is reindexed", async () => {
    const { org } = await setup();
    const id = org.recId('search');
    const search = (query: string) =>
      call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.org}/search?${query}`, { token: org.keys.write });
    const turnOf = (res: ApiResponse) =>
      res.status === 200 ? res.body.results.find((result: { recording_id: string }) => result.recording_id === id)?.matches[0] : undefined;
    const indexed = await eventually(
      () => search('q=zeppelin&in=transcript'),
      (res) => turnOf(res) !== undefined,
    );
    expect(turnOf(indexed)).toMatchObject({ field: 'transcript', speaker: 'Speaker 2' });

    ok(await name(org, id, { speakers: [{ label: 'Speaker 2', name: 'Hangar Chief' }] }));
    const renamed = await eventually(
      () => search('q=zeppelin&in=transcript'),
      (res) => turnOf(res)?.speaker === 'Hangar Chief',
    );
    expect(turnOf(renamed)).toMatchObject({ field: 'transcript', speaker: 'Hangar Chief', start_time: 2.5, end_time: 5 });
  });

  it('a translation keeps the labels and is read with the names', async () => {
    const { org } = await setup();
    const id = org.recId('translate');
    ok(await name(org, id, { speakers: [{ label: 'Speaker 2', name: 'Ana Ruiz' }] }));
    const queued = await call(runtime.apiUrl, 'POST', `${base(org)}/${id}/translations`, {
      token: org.keys.write,
      body: { to_language: 'es' },
    });
    expect(queued.status).toBe(202);
    const done = await eventually(
      async () => ok(await getRec(org, id, 'include=translation')),
      (recording) => ['completed', 'failed'].includes(recording.translation?.processing_status),
    );
    expect(done.translation.processing_status).toBe('completed');
    const json = ok(await transcript(org, id, 'language=es'));
    expect(json.segments.map((turn: { speaker: string }) => turn.speaker)).toEqual(['Speaker 1', 'Ana Ruiz', 'Speaker 1']);
    expect(json.speakers.map((entry: { name: string }) => entry.name)).toEqual(['Speaker 1', 'Ana Ruiz']);
    expect((await transcript(org, id, 'language=es&format=vtt')).body).toContain('<v Ana Ruiz>');
  });
});
