import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { expireItems } from '../../../infra/local/ttl-emulator';
import { trashTimerItem } from '../../../shared/storage/trash-timers';
import { listObjects, TIMESTAMP } from '../../support/api';
import { eventually } from '../../support/eventually';
import { eventsInclude, publishedEvents } from '../../support/events';
import { printedOutput } from '../../support/local-deployment';
import {
  buildRecordingsOrg,
  callers,
  counts,
  dataDir,
  db,
  getRec,
  INVALID,
  isLive,
  itemsLeftAfterCleanup,
  itemsOfRecording,
  listed,
  memberCounts,
  nameOf,
  NEW,
  NOT_FOUND,
  OLD,
  type Org,
  publicIds,
  remove,
  restore,
  seededWithThreeRecordings,
  seedRecordingsOrg,
  send,
  timerOf,
  unknownAndOther,
  WRITERS,
} from '../../support/recordings';

/**
 * Delete recording end to end (HTTP -> local API Gateway emulator -> authorizer -> handler ->
 * DynamoDB Local, and the S3 emulator and the event pipeline for what follows): soft and
 * permanent deletes with the reads and counts at every step, an uploaded recording's file, and
 * the trash retention, each rule with a test that fails when it breaks. The
 * organizations and helpers of the recordings suites: test/support/recordings.ts.
 */

describe('DELETE /api/v1/organization/{orgId}/recordings/{recordingId}', () => {
  it('soft delete, restore, then permanent delete: reads and counts at every step', async () => {
    const org = await seededWithThreeRecordings();
    const [oldId, newId, adminsId] = ['old', 'new', 'admins'].map(org.recId);
    expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });

    // Soft delete: hidden from every read and count, data kept.
    const deleted = await remove(org, newId);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect(await counts(org)).toEqual({ live: 2, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });
    expect(await getRec(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await listed(org)).ids).toEqual([adminsId, oldId]);
    expect(await listed(org, `tagIds=${org.tags.A.id}`)).toMatchObject({ ids: [oldId], pagination: { total: 1 } });
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [], pagination: { total: 0 } });
    expect(await listed(org, `recordedBy=${org.people.member.id}`)).toMatchObject({ ids: [oldId], pagination: { total: 1 } });
    expect(await listed(org, 'date=2026-04-02')).toMatchObject({ ids: [], pagination: { total: 0 } });
    expect(await publicIds(org)).toEqual({ ids: [adminsId, oldId], total: 2 });
    const trash = await listed(org, 'deleted=true');
    expect(trash.recordings).toEqual([expect.objectContaining({ id: newId, deleted_at: expect.stringMatching(TIMESTAMP) })]);
    expect(Date.parse(trash.recordings[0].deleted_at as string)).toBeGreaterThan(Date.now() - 60_000);
    // When its timer runs out: the retention (30 days) after it was trashed.
    expect(trash.recordings[0].purge_at).toBe((await timerOf(org, newId))?.purge_at);
    expect(Date.parse(trash.recordings[0].purge_at as string) - Date.parse(trash.recordings[0].deleted_at as string)).toBe(30 * 86_400_000);
    expect(await itemsOfRecording(org, newId)).toEqual(expect.arrayContaining([`ORG#${org.org} REC#${newId}#SUMMARY#${newId}_summary`]));

    // Deleting it again, or restoring a live recording: 404.
    expect(await remove(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, oldId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, `rec_unknown_${org.id}`)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await counts(org)).toEqual({ live: 2, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });

    // Restore: back with its data, its tags and its counts.
    const restored = await restore(org, newId);
    expect(restored.status).toBe(200);
    // The restored recording's list item (docs/decisions.md).
    expect(restored.body).toEqual({
      id: newId,
      title: 'Recording new',
      duration: 60,
      language: 'en',
      recorded_by: org.people.member.id,
      tags: [org.tags.A.id, org.tags.B.id],
      created_at: NEW,
    });
    expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });
    const read = await getRec(org, newId, 'include=transcript,summary,action_items,translation');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      tags: [org.tags.A.id, org.tags.B.id],
      transcript: [{ speaker: 'Mo', text: 'Hello', start: 0, end: 1.5 }],
      summary: { markdown: '# Hi' },
      action_items: [expect.objectContaining({ text: 'Follow up' })],
      translation: expect.objectContaining({ to_language: 'de' }),
    });
    expect(read.body).not.toHaveProperty('deleted_at');
    expect((await listed(org)).ids).toEqual([adminsId, newId, oldId]);
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [newId], pagination: { total: 1 } });
    expect(await listed(org, `tagIds=${org.tags.A.id},${org.tags.B.id}&tagMode=all`)).toMatchObject({
      ids: [newId],
      pagination: { total: 1 },
    });
    expect(await publicIds(org)).toEqual({ ids: [adminsId, newId, oldId], total: 3 });
    expect(await restore(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });

    // Permanent delete of a live recording: nothing of it remains.
    expect((await itemsOfRecording(org, newId)).length).toBeGreaterThan(5); // the check sees what exists
    const gone = await remove(org, newId, 'permanent=true');
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ success: true });
    expect(await itemsLeftAfterCleanup(org, newId)).toEqual([]);
    expect(await counts(org)).toEqual({ live: 2, trash: 0, member: { recording_count: 1, latest_recording_at: OLD } });
    expect(await getRec(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await restore(org, newId)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await remove(org, newId, 'permanent=true')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await listed(org, `tagIds=${org.tags.B.id}`)).toMatchObject({ ids: [], pagination: { total: 0 } });

    // Emptying the trash: soft, then permanent.
    expect((await remove(org, oldId, 'permanent=false')).status).toBe(200);
    expect(await counts(org)).toEqual({ live: 1, trash: 1, member: { recording_count: 0, latest_recording_at: null } });
    expect(await timerOf(org, oldId)).toMatchObject({ deleted_at: expect.stringMatching(TIMESTAMP) });
    expect((await remove(org, oldId, 'permanent=true')).body).toEqual({ success: true });
    expect(await timerOf(org, oldId)).toBeUndefined();
    expect(await itemsLeftAfterCleanup(org, oldId)).toEqual([]);
    expect(await counts(org)).toEqual({ live: 1, trash: 0, member: { recording_count: 0, latest_recording_at: null } });
    expect((await listed(org, 'deleted=true')).ids).toEqual([]);
    expect((await listed(org)).ids).toEqual([adminsId]);
    expect(await memberCounts(org, org.people.admin.id)).toEqual({ recording_count: 1, latest_recording_at: '2026-04-03T10:00:00.000Z' });
  });

  it('latest_recording_at falls back to the previous recording, and moves forward again on restore', async () => {
    const org = await seededWithThreeRecordings();
    expect(await memberCounts(org)).toEqual({ recording_count: 2, latest_recording_at: NEW });
    await remove(org, org.recId('new'));
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: OLD });
    // With no live recording left, there is no latest.
    await remove(org, org.recId('old'));
    expect(await memberCounts(org)).toEqual({ recording_count: 0, latest_recording_at: null });
    await restore(org, org.recId('old'));
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: OLD });
    await restore(org, org.recId('new'));
    expect(await memberCounts(org)).toEqual({ recording_count: 2, latest_recording_at: NEW });
    // Removing the older one permanently keeps the latest.
    await remove(org, org.recId('old'), 'permanent=true');
    expect(await memberCounts(org)).toEqual({ recording_count: 1, latest_recording_at: NEW });
  });

  describe('permanent must be true or false', () => {
    let org: Org;
    beforeAll(async () => {
      org = await seededWithThreeRecordings();
    });

    it.each(['permanent=maybe', 'permanent=1', 'permanent=TRUE', 'permanent=', 'hard=true'])(
      'rejects %s with 400 and deletes nothing',
      async (query) => {
        const res = await remove(org, org.recId('new'), query);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(INVALID);
        expect((await getRec(org, org.recId('new'))).status).toBe(200);
        expect(await counts(org)).toEqual({ live: 3, trash: 0, member: { recording_count: 2, latest_recording_at: NEW } });
      },
    );
  });

  describe('an uploaded recording', () => {
    /** Uploads a file through the public upload URL (the admin's personal key) and waits for `uploaded`. */
    async function upload(org: Org) {
      const created = await send('POST', '/api/v1/public/recordings/upload-url', org.keys.personal, {
        filename: 'call.mp3',
        content_type: 'audio/mpeg',
        size_bytes: 5,
      });
      expect(created.status).toBe(201);
      const { recording_id: recordingId, upload_url: url } = created.body.data;
      const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'audio/mpeg' }, body: Buffer.from('hello') });
      expect(put.status).toBe(200);
      const state = await eventually(
        async () =>
          ((await send('GET', '/api/v1/public/recordings?limit=100', org.keys.full)).body.data as { id: string; state: string }[]).find(
            (r) => r.id === recordingId,
          )?.state,
        (s) => s === 'uploaded',
      );
      expect(state).toBe('uploaded');
      const prefix = `recordings/${org.org}/${recordingId}/`;
      expect(await listObjects(prefix)).toEqual([{ key: expect.stringContaining(prefix), size: 5 }]);
      return { recordingId, prefix };
    }

    it('permanent delete removes its object from the bucket shortly after (object cleanup consumer), and every item', async () => {
      const org = await seededWithThreeRecordings();
      const { recordingId, prefix } = await upload(org);
      expect(await memberCounts(org, org.people.admin.id)).toMatchObject({ recording_count: 2 });
      // The request commits one transaction and calls no S3 (test/domain/recordings.test.ts counts its requests).
      expect((await remove(org, recordingId, 'permanent=true')).status).toBe(200);
      expect(
        await eventually(
          () => listObjects(prefix),
          (objects) => objects.length === 0,
        ),
      ).toEqual([]);
      expect(await itemsLeftAfterCleanup(org, recordingId)).toEqual([]);
      const deleted = (await eventsInclude(org.org, ['recording.deleted'], recordingId)).filter(
        (event) => event.type === 'recording.deleted',
      );
      expect(deleted).toEqual([
        expect.objectContaining({
          actor: { kind: 'api_key', id: expect.any(String) },
          resource: { type: 'recording', id: recordingId },
          data: { recorded_by: org.people.admin.id, reason: 'request' },
        }),
      ]);
      expect(await memberCounts(org, org.people.admin.id)).toEqual({ recording_count: 1, latest_recording_at: '2026-04-03T10:00:00.000Z' });
    });

    it('soft delete keeps the object; permanent delete from the trash removes it', async () => {
      const org = await seededWithThreeRecordings();
      const { recordingId, prefix } = await upload(org);
      expect((await remove(org, recordingId)).status).toBe(200);
      expect(await listObjects(prefix)).toHaveLength(1);
      expect((await remove(org, recordingId, 'permanent=true')).status).toBe(200);
      expect(
        await eventually(
          () => listObjects(prefix),
          (objects) => objects.length === 0,
        ),
      ).toEqual([]);
      expect(await itemsLeftAfterCleanup(org, recordingId)).toEqual([]);
      expect(await counts(org)).toMatchObject({ live: 3, trash: 0 });
    });
  });

  describe('the trash retention (TRASH_RETENTION_DAYS, 30 in the local deployment)', () => {
    // Trashed in January, due 30 days later: long past by the real clock the consumer reads.
    const DELETED_AT = '2026-01-16T00:00:00.000Z';
    const PURGE_AT = '2026-02-15T00:00:00.000Z';

    /**
     * The three recordings, and one of the member's in the trash since DELETED_AT with parts and a tag (a
     * fixture's: the seed set its timer a day ahead, the retention having run out long ago).
     */
    async function withExpiredTrash() {
      const org = buildRecordingsOrg('ret');
      await seedRecordingsOrg(org, [
        org.rec('old', { created_at: OLD, tags: ['A'] }),
        org.rec('expired', {
          created_at: '2026-01-10T10:00:00.000Z',
          tags: ['A'],
          deleted_at: DELETED_AT,
          summary: { markdown: 'old notes' },
          transcript: [{ speaker: 'Mo', text: 'Hi', start: 0, end: 1 }],
        }),
      ]);
      return org;
    }
    const setTimer = (org: Org, recordingId: string) =>
      db.client.send(
        new PutCommand({
          TableName: db.tableName,
          Item: trashTimerItem({ org_id: org.org, recording_id: recordingId, deleted_at: DELETED_AT, purge_at: PURGE_AT }),
        }),
      );
    /** DynamoDB's TTL sweep over this organization's items, at `now` (the local TTL emulator). */
    const sweep = (org: Org, now = new Date()) => expireItems(db, { now, orgId: org.org });
    /** Past the day a timer set by the seed waits. */
    const afterGrace = () => new Date(Date.now() + 86_400_000 + 60_000);
    /** The trash retention consumer's log lines for one recording (the local deployment logs at INFO). */
    const retentionRuns = (recordingId: string) =>
      printedOutput(dataDir)
        .split('\n')
        .filter((line) => line.includes('"trash retention ran"') && line.includes(`"recording_id":"${recordingId}"`))
        .map((line) => (JSON.parse(line) as { outcome: string }).outcome);

    it('deletes a recording whose time in the trash ran out, as a permanent delete does, by no actor and for retention', async () => {
      const org = await withExpiredTrash();
      const expired = org.recId('expired');
      expect(await counts(org)).toEqual({ live: 1, trash: 1, member: { recording_count: 1, latest_recording_at: OLD } });
      expect(await sweep(org)).toBe(0);
      expect(await sweep(org, afterGrace())).toBe(1);

      expect(
        await eventually(
          () => itemsOfRecording(org, expired),
          (items) => items.length === 0,
        ),
      ).toEqual([]);
      expect(await counts(org)).toEqual({ live: 1, trash: 0, member: { recording_count: 1, latest_recording_at: OLD } });
      expect((await listed(org, 'deleted=true')).ids).toEqual([]);
      expect(await getRec(org, expired)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await listed(org, `tagIds=${org.tags.A.id}`)).toMatchObject({ ids: [org.recId('old')], pagination: { total: 1 } });
      const deleted = publishedEvents(org.org).filter((event) => event.type === 'recording.deleted');
      expect(deleted).toEqual([
        expect.objectContaining({
          actor: null,
          resource: { type: 'recording', id: expired },
          data: { recorded_by: org.people.member.id, reason: 'retention' },
        }),
      ]);
    });

    it('a restore racing the timer wins: the recording stays, with its counts', async () => {
      const org = await withExpiredTrash();
      const expired = org.recId('expired');
      expect((await restore(org, expired)).status).toBe(200);
      expect(await timerOf(org, expired)).toBeUndefined();
      // The timer's removal by TTL was already under way when the restore committed.
      await setTimer(org, expired);
      expect(await sweep(org)).toBe(1);

      expect(
        await eventually(
          async () => retentionRuns(expired),
          (outcomes) => outcomes.length > 0,
        ),
      ).toEqual(['not_in_trash']);
      expect(await getRec(org, expired)).toMatchObject({ status: 200, body: { id: expired } });
      expect(await counts(org)).toEqual({ live: 2, trash: 0, member: { recording_count: 2, latest_recording_at: OLD } });
      expect(publishedEvents(org.org).filter((event) => event.type === 'recording.deleted')).toEqual([]);
    });

    it('a timer that goes before the retention ran out deletes nothing, and is set again', async () => {
      const org = await seededWithThreeRecordings();
      const recordingId = org.recId('old');
      expect((await remove(org, recordingId)).status).toBe(200);
      const timer = await timerOf(org, recordingId);
      expect(Date.parse(timer!.purge_at) - Date.parse(timer!.deleted_at)).toBe(30 * 86_400_000);
      // A sweep a month ahead removes the timer; the consumer, on the real clock, finds it not due.
      expect(await sweep(org, new Date(Date.now() + 31 * 86_400_000))).toBe(1);

      expect(
        await eventually(
          async () => retentionRuns(recordingId),
          (outcomes) => outcomes.length > 0,
        ),
      ).toEqual(['not_due']);
      expect(await timerOf(org, recordingId)).toEqual(timer);
      expect((await listed(org, 'deleted=true')).ids).toEqual([recordingId]);
      expect(await counts(org)).toMatchObject({ live: 2, trash: 1 });
    });
  });

  it('unknown and other-organization recordings are 404 on delete (soft and permanent)', async () => {
    const { org, other } = await unknownAndOther();
    for (const recordingId of [`rec_unknown_${org.id}`, other.recId('new')]) {
      for (const query of ['', 'permanent=true'])
        expect(await remove(org, recordingId, query)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect((await getRec(other, other.recId('new'))).status).toBe(200);
    expect((await counts(other)).live).toBe(3);
  });

  describe('callers it admits', () => {
    it.each(WRITERS)('Delete with %s: in the trash', async (caller, tokenOf) => {
      const org = await callers();
      const res = await remove(org, org.recId(`del_${nameOf(caller)}`), '', await tokenOf(org));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await isLive(org, `del_${nameOf(caller)}`)).toBe(false);
    });
  });
});
