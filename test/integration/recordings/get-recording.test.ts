import { TIMESTAMP } from '../../support/api';
import {
  buildRecordingsOrg,
  callers,
  getRec,
  INVALID,
  NOT_FOUND,
  type Org,
  queryAll,
  READERS,
  RELATED,
  seedRecordingsOrg,
} from '../../support/recordings';

/**
 * Get recording end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local): the recording with the related parts include names (a transcript larger than
 * an item included), unknown and other organizations' ids, each rule with a test that
 * fails when it breaks. The organizations and helpers of the recordings suites:
 * test/support/recordings.ts.
 */

describe('GET /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  let org: Org;
  let other: Org;
  const SEGMENTS = 3000;
  // Long texts, so the transcript is well over DynamoDB's 400 KB item limit.
  const transcript = Array.from({ length: SEGMENTS }, (_, i) => ({
    speaker: `Speaker ${(i % 3) + 1}`,
    text: `Segment ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}é ✓`,
    start: i * 2.5,
    end: i * 2.5 + 2.25,
  }));
  const summary = { markdown: '# Weekly sync\n\n- Ship the beta\n- Hire', template_id: 'tpl_weekly', template_name: 'Weekly' };
  const actionItems = [
    { id: 'act_deck', text: 'Send the deck', assignee: 'usr_assignee', due_date: '2026-02-05', completed: false },
    { text: 'Book the room', completed: true },
  ];
  const translation = { to_language: 'fr', detected_language: 'en' };

  beforeAll(async () => {
    org = buildRecordingsOrg('get');
    other = buildRecordingsOrg('get_other');
    await Promise.all([
      seedRecordingsOrg(org, [
        org.rec('full', {
          title: 'Board meeting',
          description: 'Quarterly numbers',
          duration: 7500,
          created_at: '2026-02-01T09:00:00.000Z',
          tags: ['A', 'C'],
          transcript,
          summary,
          action_items: actionItems,
          translation,
        }),
        org.rec('bare', { created_at: '2026-02-02T09:00:00.000Z', description: '' }),
        org.rec('trashed', { created_at: '2026-02-03T09:00:00.000Z', summary, deleted_at: '2026-02-04T00:00:00.000Z' }),
      ]),
      seedRecordingsOrg(other, [other.rec('theirs')]),
    ]);
  });

  it('without include: the recording and none of its related resources', async () => {
    const res = await getRec(org, org.recId('full'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: org.recId('full'),
      title: 'Board meeting',
      description: 'Quarterly numbers',
      duration: 7500,
      language: 'en',
      recorded_by: org.people.member.id,
      tags: [org.tags.A.id, org.tags.C.id],
      created_at: '2026-02-01T09:00:00.000Z',
    });
    for (const key of RELATED) expect(res.body).not.toHaveProperty(key);
  });

  it('include=transcript,summary,action_items,translation adds each one', async () => {
    const res = await getRec(org, org.recId('full'), 'include=transcript,summary,action_items,translation');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.recId('full'), title: 'Board meeting', description: 'Quarterly numbers' });
    expect(res.body.summary).toEqual({
      ...summary,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    // Action items (docs/decisions.md): id, text, assignee, assignee_user_id, due_date, completed, timestamp; an id is made up when none is given.
    // Since summaries are written: the member the assignee names (a fixture names them by user id) and the moment said (unknown for a fixture's).
    expect(res.body.action_items).toEqual([
      { ...actionItems[0], assignee_user_id: 'usr_assignee', timestamp: null },
      {
        id: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        text: 'Book the room',
        assignee: null,
        assignee_user_id: null,
        due_date: null,
        completed: true,
        timestamp: null,
      },
    ]);
    expect(res.body.translation).toEqual({
      id: expect.any(String),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      detected_language: 'en',
      to_language: 'fr',
      processing_status: expect.any(String),
      error_message: '',
    });
    // The whole transcript, every segment in order.
    expect(res.body.transcript).toHaveLength(SEGMENTS);
    expect(res.body.transcript).toEqual(transcript);
  });

  it('a long transcript is stored as several chunk items, each below the item size limit', async () => {
    const chunks = await queryAll({
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': `ORG#${org.org}`, ':sk': `REC#${org.recId('full')}#TRANSCRIPT#` },
    });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(JSON.stringify(chunk))).toBeLessThan(400_000);
  });

  it('include adds only what it names', async () => {
    const res = await getRec(org, org.recId('full'), 'include=summary');
    expect(res.body.summary).toMatchObject({ markdown: summary.markdown });
    for (const key of ['transcript', 'action_items', 'translation']) expect(res.body).not.toHaveProperty(key);
    const two = await getRec(org, org.recId('full'), 'include=action_items,translation');
    expect(
      Object.keys(two.body)
        .filter((key) => RELATED.includes(key))
        .sort(),
    ).toEqual(['action_items', 'translation']);
  });

  it('a related resource asked for but absent is null', async () => {
    const res = await getRec(org, org.recId('bare'), 'include=transcript,summary,action_items,translation');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.recId('bare'), transcript: null, summary: null, action_items: null, translation: null });
  });

  it.each(['include=foo', 'include=transcript,foo', 'include=Summary', 'expand=transcript'])(
    'rejects %s with 400 VALIDATION_ERROR',
    async (query) => {
      const res = await getRec(org, org.recId('full'), query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID);
    },
  );

  it('unknown, soft-deleted and other-organization recordings are 404 RECORDING_NOT_FOUND', async () => {
    for (const recordingId of [`rec_unknown_${org.id}`, org.recId('trashed'), other.recId('theirs')]) {
      for (const query of ['', 'include=summary']) {
        const res = await getRec(org, recordingId, query);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    }
    expect((await getRec(other, other.recId('theirs'))).status).toBe(200);
  });

  describe('callers it admits', () => {
    it.each(READERS)('Get with %s: the recording', async (_caller, tokenOf) => {
      const org = await callers();
      const res = await getRec(org, org.recId('get'), 'include=summary', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: org.recId('get'), summary: { markdown: 'x' } });
    });
  });
});
