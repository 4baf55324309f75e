import { WebVTTParser } from 'webvtt-parser';
import htmlEntities from 'webvtt-parser/html-entities.json';
import { call, expectFailure, localDeployment, once } from '../../support/api';
import { buildOrg, seedOrg } from '../../support/org-builder';

/**
 * Get transcript on both hosts: each format as a client reads it (JSON; WebVTT by W3C's parser;
 * SubRip by its grammar; text), `download=true` naming the file from the title, the refusals,
 * and a personal key's reach. The transcript is seeded (the pipeline's suite makes real ones).
 */
const { runtime } = localDeployment();

const SEGMENTS = [
  { speaker: 'Speaker 1', text: 'Budget approved <finally> & signed.', start: 0.5, end: 3.25 },
  { speaker: 'Speaker 2', text: 'Great, we start in March.', start: 4, end: 6.5 },
];

const setup = once(async () => {
  const org = buildOrg({
    label: 'trx',
    keys: {
      read: { scopes: ['recordings:read'] },
      member: { scopes: ['recordings:read'], user: 'member' },
      admin: { scopes: ['recordings:read'], user: 'admin' },
    },
  });
  const recording = (name: string, fields: Record<string, unknown> = {}) => ({
    id: org.recId(name),
    org_id: org.org,
    recorded_by: org.people.member.id,
    title: 'Réunion budget',
    duration: 7,
    language: 'en-US',
    created_at: '2026-11-16T09:05:00.000Z',
    ...fields,
  });
  await seedOrg(org, { recordings: [recording('done', { transcript: SEGMENTS }), recording('none')] });
  return org;
});

const get = (path: string, key: string) => call(runtime.apiUrl, 'GET', path, { token: key });

describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}/transcript (and the public alias)', () => {
  it('json by default: {recording_id, language, text, segments, speakers}', async () => {
    const org = await setup();
    const res = await get(`/api/v1/organization/${org.org}/recordings/${org.recId('done')}/transcript`, org.keys.read);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({
      recording_id: org.recId('done'),
      language: 'en-US',
      text: SEGMENTS.map((s) => s.text).join(' '),
      segments: SEGMENTS,
      speakers: ['Speaker 1', 'Speaker 2'].map((label) => ({
        label,
        name: label,
        user_id: null,
        talk_time_seconds: expect.any(Number),
        turn_count: SEGMENTS.filter((segment) => segment.speaker === label).length,
      })),
    });
  });

  it("vtt: a WebVTT file W3C's parser reads without an error, with <v Speaker 1> voices", async () => {
    const org = await setup();
    const res = await get(`/api/v1/organization/${org.org}/recordings/${org.recId('done')}/transcript?format=vtt`, org.keys.read);
    expect(res.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const { cues, errors } = new WebVTTParser(htmlEntities).parse(res.body);
    expect(errors).toEqual([]);
    expect(cues.map((cue) => [cue.startTime, cue.endTime, cue.tree.children[0].value])).toEqual([
      [0.5, 3.25, 'Speaker 1'],
      [4, 6.5, 'Speaker 2'],
    ]);
  });

  it('srt and txt: SubRip cues by their grammar, and one `Speaker: text` line per turn; download=true names the file from the title', async () => {
    const org = await setup();
    const srt = await get(
      `/api/v1/organization/${org.org}/recordings/${org.recId('done')}/transcript?format=srt&download=true`,
      org.keys.read,
    );
    expect(srt.headers.get('content-type')).toBe('application/x-subrip');
    expect(srt.headers.get('content-disposition')).toMatch(/^attachment; filename="Reunion-budget\.srt"/);
    const blocks = String(srt.body).replace(/\n$/, '').split('\n\n');
    expect(blocks.map((block) => /^(\d+)\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n(.+)$/.exec(block)?.slice(1))).toEqual([
      ['1', 'Speaker 1: Budget approved <finally> & signed.'],
      ['2', 'Speaker 2: Great, we start in March.'],
    ]);
    const txt = await get(`/api/v1/public/recordings/${org.recId('done')}/transcript?format=txt`, org.keys.member);
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(txt.headers.get('content-disposition')).toBeNull();
    expect(txt.body).toBe('Speaker 1: Budget approved <finally> & signed.\nSpeaker 2: Great, we start in March.\n');
  });

  it("refuses a recording without transcript (404 TRANSCRIPT_NOT_FOUND), an unknown one, another member's for a personal key, and an unknown format", async () => {
    const org = await setup();
    expectFailure(
      await get(`/api/v1/organization/${org.org}/recordings/${org.recId('none')}/transcript`, org.keys.read),
      404,
      'TRANSCRIPT_NOT_FOUND',
    );
    expectFailure(await get(`/api/v1/organization/${org.org}/recordings/rec_nope/transcript`, org.keys.read), 404, 'RECORDING_NOT_FOUND');
    expectFailure(await get(`/api/v1/public/recordings/${org.recId('done')}/transcript`, org.keys.admin), 404, 'RECORDING_NOT_FOUND');
    expectFailure(
      await get(`/api/v1/organization/${org.org}/recordings/${org.recId('done')}/transcript?format=docx`, org.keys.read),
      400,
      'VALIDATION_ERROR',
    );
  });
});
