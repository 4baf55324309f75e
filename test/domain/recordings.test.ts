import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { listPublicRecordings } from '../../shared/domain/recordings/public-recordings';
import { listRecordings } from '../../shared/domain/recordings/list-recordings';
import { readLiveRecording } from '../../shared/domain/recordings/read-recording';
import {
  completeUpload,
  createRecording,
  deleteRecordingPermanently,
  restoreRecording,
  softDeleteRecording,
  updateRecording,
} from '../../shared/domain/recordings/recording-changes';
import type { TableContext } from '../../shared/storage/dynamo';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import type { RecordingFilter } from '../../shared/storage/recording-index';
import { getRecording, getRecordingWithParts, type Recording, type RecordingParts } from '../../shared/storage/recordings';
import { localDeployment, seed, unique } from '../support/api';

/**
 * The recording changes (shared/domain/recordings) called directly against the emulator's
 * table with a fixed clock: what each change stores, the tag links that make tag filters
 * find live recordings, the organization's and the recorder's counters, the outcomes of an
 * upload's completion, and what a writer that keeps losing races gets.
 */
const { db } = localDeployment();
const T0 = new Date('2026-01-01T00:00:00.000Z');
const T1 = new Date('2026-01-02T00:00:00.000Z');
const T2 = new Date('2026-01-03T00:00:00.000Z');
const T3 = new Date('2026-01-04T00:00:00.000Z');
const at = (time: Date) => ({ db, now: () => time });
const NO_RELATED = { transcript: false, summary: false, action_items: false, translation: false };

/** An organization of its own: mo (member) and ann (admin), tags A and B owned by mo. */
async function newOrg() {
  const id = unique();
  const org = {
    orgId: `org_drec_${id}`,
    mo: `usr_drec_mo_${id}`,
    ann: `usr_drec_ann_${id}`,
    tagA: `tag_drec_a_${id}`,
    tagB: `tag_drec_b_${id}`,
  };
  await seed(db, {
    orgs: [{ id: org.orgId, name: `Recordings ${id}` }],
    users: [
      { id: org.mo, email: `mo.${id}@example.com`, display_name: 'Mo' },
      { id: org.ann, email: `ann.${id}@example.com`, display_name: 'Ann' },
    ],
    memberships: [
      { org_id: org.orgId, user_id: org.mo, role: 'member' },
      { org_id: org.orgId, user_id: org.ann, role: 'admin' },
    ],
    tags: [
      { id: org.tagA, org_id: org.orgId, user_id: org.mo, name: 'Alpha', color: '#ff0000' },
      { id: org.tagB, org_id: org.orgId, user_id: org.mo, name: 'Bravo', color: '#00ff00' },
    ],
  });
  const recording = (name: string, fields: Partial<Recording> = {}): Recording => ({
    id: `rec_${name}_${id}`,
    org_id: org.orgId,
    recorded_by: org.mo,
    title: `Recording ${name}`,
    description: '',
    duration: 60,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'ready',
    created_at: T0.toISOString(),
    updated_at: T0.toISOString(),
    recording_at: T0.toISOString(),
    related: NO_RELATED,
    ...fields,
  });
  return { ...org, recording };
}
type Org = Awaited<ReturnType<typeof newOrg>>;

/** The organization's live and trash totals and the recorder's counters, as stored. */
async function counters(org: Org, userId = org.mo) {
  const [stored, membership] = await Promise.all([getOrganization(db, org.orgId), getMembership(db, org.orgId, userId)]);
  return { live: stored?.recording_count, trash: stored?.trash_count, recorder: { count: membership?.recording_count, latest: membership?.latest_recording_at } };
}

/** The ids a list shows, newest first. */
async function listed(org: Org, filter: Partial<RecordingFilter> = {}) {
  const { recordings, total } = await listRecordings(db, { filter: { orgId: org.orgId, bin: 'LIVE', tagMode: 'any', ...filter }, page: 1, limit: 100 });
  return { ids: recordings.map((recording) => recording.id), total };
}

const notFound = { statusCode: 404, code: 'RECORDING_NOT_FOUND' };

describe('createRecording', () => {
  it('stores the recording as given, lists it under its tags and counts it for the organization and the recorder', async () => {
    const org = await newOrg();
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });

    const older = org.recording('older', { tags: [org.tagA], created_at: '2025-12-01T00:00:00.000Z' });
    const newer = org.recording('newer', { tags: [org.tagA, org.tagB] });
    await createRecording(at(T0), older);
    await createRecording(at(T0), newer);

    expect(await getRecording(db, org.orgId, newer.id)).toEqual(newer);
    expect(await counters(org)).toEqual({ live: 2, trash: 0, recorder: { count: 2, latest: newer.created_at } });
    expect(await listed(org)).toEqual({ ids: [newer.id, older.id], total: 2 });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([newer.id, older.id]);
    expect((await listed(org, { tagIds: [org.tagB] })).ids).toEqual([newer.id]);
    expect((await listed(org, { tagIds: [org.tagA, org.tagB], tagMode: 'all' })).ids).toEqual([newer.id]);
  });

  it('keeps every related part, a long transcript split over several items coming back whole and in order', async () => {
    const org = await newOrg();
    // About 300 KB of segments: more than one transcript chunk item holds.
    const segments = Array.from({ length: 300 }, (_, i) => ({ speaker: i % 2 ? 'Ann' : 'Mo', text: `${i} ${'x'.repeat(1000)}`, start: i, end: i + 0.5 }));
    const parts: RecordingParts = {
      transcript: { header: { id: 'trn_1', language: 'en', segment_count: 0, chunk_count: 0, created_at: T0.toISOString(), updated_at: T0.toISOString() }, segments },
      summary: { markdown: '## Notes', template_id: null, template_name: null, created_at: T0.toISOString(), updated_at: T0.toISOString() },
      action_items: [
        { id: 'act_1', text: 'Send the deck', assignee: 'Mo', due_date: '2026-01-09', completed: false },
        { id: 'act_2', text: 'Book the room', assignee: null, due_date: null, completed: true },
      ],
      translation: {
        id: 'trl_1',
        created_at: T0.toISOString(),
        updated_at: T0.toISOString(),
        detected_language: 'en',
        to_language: 'fr',
        processing_status: 'completed',
        error_message: '',
      },
    };
    const recording = org.recording('parts', { related: { transcript: true, summary: true, action_items: true, translation: true } });
    await createRecording(at(T0), recording, parts);

    const read = await readLiveRecording(db, org.orgId, recording.id, true);
    expect(read.recording).toEqual(recording);
    expect(read.parts.transcript?.segments).toEqual(segments);
    expect(read.parts.transcript?.header).toMatchObject({ id: 'trn_1', segment_count: 300, chunk_count: 2 });
    expect(read.parts.summary).toEqual(parts.summary);
    expect(read.parts.action_items).toEqual(parts.action_items);
    expect(read.parts.translation).toEqual(parts.translation);

    // The public list shows the page's recorder, tags and results from one batch read.
    const caller = { kind: 'org_key' as const, orgId: org.orgId, keyId: 'key_test', scopes: ['recordings:read' as const], actor: 'key_test' };
    const { data } = await listPublicRecordings(db, caller, { page: 1, limit: 10 });
    expect(data).toEqual([
      expect.objectContaining({
        id: recording.id,
        recorded_by: { display_name: 'Mo', email: expect.stringMatching(/^mo\./), user_id: org.mo },
        summarizations: [expect.objectContaining({ markdown: '## Notes' })],
        transcript: expect.objectContaining({ id: 'trn_1', segment_count: 300 }),
        translation: parts.translation,
      }),
    ]);
  });

  it('counts a recording created in the trash there only, and lists it in the trash', async () => {
    const org = await newOrg();
    const trashed = org.recording('trashed', { tags: [org.tagA], deleted_at: T0.toISOString() });
    await createRecording(at(T0), trashed);
    expect(await counters(org)).toEqual({ live: 0, trash: 1, recorder: { count: 0, latest: null } });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect((await listed(org, { bin: 'TRASH', tagIds: [org.tagA] })).ids).toEqual([trashed.id]);
  });

  it('refuses a recorder who is not a member, writing nothing', async () => {
    const org = await newOrg();
    const stranger = org.recording('stranger', { recorded_by: 'usr_nobody' });
    await expect(createRecording(at(T0), stranger)).rejects.toMatchObject({ statusCode: 400, details: [expect.objectContaining({ field: 'recorded_by' })] });
    expect(await getRecording(db, org.orgId, stranger.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });
  });
});

describe('updateRecording', () => {
  it('changes only the fields given, stamps the clock and moves the tag links; no count moves', async () => {
    const org = await newOrg();
    const recording = org.recording('edit', { tags: [org.tagA], description: 'kept' });
    await createRecording(at(T0), recording);

    const updated = await updateRecording(at(T1), org.orgId, recording.id, { title: 'Renamed', tags: [org.tagB] });
    expect(updated).toEqual({ ...recording, title: 'Renamed', tags: [org.tagB], updated_at: T1.toISOString() });
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(updated);
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect((await listed(org, { tagIds: [org.tagB] })).ids).toEqual([recording.id]);
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: recording.created_at } });
  });

  it('refuses tags the organization does not have, and recordings in the trash or unknown', async () => {
    const org = await newOrg();
    const recording = org.recording('refused');
    await createRecording(at(T0), recording);
    await expect(updateRecording(at(T1), org.orgId, recording.id, { tags: ['tag_unknown'] })).rejects.toMatchObject({ statusCode: 400, details: [expect.objectContaining({ field: 'tags' })] });
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(recording);

    await softDeleteRecording(at(T1), org.orgId, recording.id);
    await expect(updateRecording(at(T2), org.orgId, recording.id, { title: 'Too late' })).rejects.toMatchObject(notFound);
    await expect(updateRecording(at(T2), org.orgId, 'rec_unknown', { title: 'Nothing' })).rejects.toMatchObject(notFound);
  });
});

describe('softDeleteRecording and restoreRecording', () => {
  it('move a recording to the trash and back with its links, the counters following, the recorder falling back to its newest other recording', async () => {
    const org = await newOrg();
    const older = org.recording('older', { created_at: '2025-12-01T00:00:00.000Z' });
    const newest = org.recording('newest', { tags: [org.tagA] });
    await createRecording(at(T0), older);
    await createRecording(at(T0), newest);

    await softDeleteRecording(at(T2), org.orgId, newest.id);
    await expect(readLiveRecording(db, org.orgId, newest.id)).rejects.toMatchObject(notFound);
    expect(await getRecording(db, org.orgId, newest.id)).toEqual({ ...newest, deleted_at: T2.toISOString(), updated_at: T2.toISOString() });
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: older.created_at } });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect(await listed(org, { bin: 'TRASH' })).toEqual({ ids: [newest.id], total: 1 });
    await expect(softDeleteRecording(at(T2), org.orgId, newest.id)).rejects.toMatchObject(notFound);

    const restored = await restoreRecording(at(T3), org.orgId, newest.id);
    expect(restored).toEqual({ ...newest, updated_at: T3.toISOString() });
    expect(await getRecording(db, org.orgId, newest.id)).toEqual(restored);
    expect(await counters(org)).toEqual({ live: 2, trash: 0, recorder: { count: 2, latest: newest.created_at } });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([newest.id]);
    await expect(restoreRecording(at(T3), org.orgId, newest.id)).rejects.toMatchObject(notFound);
  });

  it('trashing the recorder\'s only recording leaves it with none', async () => {
    const org = await newOrg();
    const only = org.recording('only');
    await createRecording(at(T0), only);
    await softDeleteRecording(at(T1), org.orgId, only.id);
    expect(await counters(org)).toEqual({ live: 0, trash: 1, recorder: { count: 0, latest: null } });
  });
});

describe('deleteRecordingPermanently', () => {
  const upload = (key: string) => ({ s3_key: key, content_type: 'audio/mp4', filename: 'a.m4a', size_bytes: 5 });

  it('removes the recording, its parts and its uploaded object, and takes it off the counters (live or trashed)', async () => {
    const org = await newOrg();
    const live = org.recording('live', { tags: [org.tagA], upload: upload('recordings/live.m4a'), related: { ...NO_RELATED, summary: true } });
    const trashed = org.recording('trashed', { deleted_at: T0.toISOString() });
    await createRecording(at(T0), live, { summary: { markdown: 'gone soon', created_at: T0.toISOString(), updated_at: T0.toISOString() } });
    await createRecording(at(T0), trashed);
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: live.created_at } });

    const deleteObject = jest.fn(async (_key: string) => undefined);
    await deleteRecordingPermanently({ ...at(T1), deleteObject }, org.orgId, live.id);
    expect(deleteObject.mock.calls).toEqual([['recordings/live.m4a']]);
    expect(await getRecordingWithParts(db, org.orgId, live.id)).toEqual({ recording: undefined, parts: {} });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect(await counters(org)).toEqual({ live: 0, trash: 1, recorder: { count: 0, latest: null } });

    await deleteRecordingPermanently({ ...at(T1), deleteObject }, org.orgId, trashed.id);
    expect(deleteObject).toHaveBeenCalledTimes(1); // no upload, no object
    expect(await getRecording(db, org.orgId, trashed.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });

    await expect(deleteRecordingPermanently({ ...at(T1), deleteObject }, org.orgId, trashed.id)).rejects.toMatchObject(notFound);
  });

  it('leaves the recording and its counts in place when the object cannot be removed, so the delete can be repeated', async () => {
    const org = await newOrg();
    const recording = org.recording('stuck', { upload: upload('recordings/stuck.m4a') });
    await createRecording(at(T0), recording);

    const failing = jest.fn(async (_key: string) => {
      throw new Error('S3 unavailable');
    });
    await expect(deleteRecordingPermanently({ ...at(T1), deleteObject: failing }, org.orgId, recording.id)).rejects.toThrow('S3 unavailable');
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(recording);
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: recording.created_at } });

    await deleteRecordingPermanently({ ...at(T1), deleteObject: jest.fn(async () => undefined) }, org.orgId, recording.id);
    expect(await getRecording(db, org.orgId, recording.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });
  });
});

describe('completeUpload', () => {
  const KEY = 'recordings/pending.m4a';
  const declared = { s3_key: KEY, content_type: 'audio/mp4', filename: 'pending.m4a', size_bytes: 5 };
  const completion = (contentType: string | undefined) => ({ ...at(T1), storedContentType: jest.fn(async (_key: string) => contentType) });

  async function pending(org: Org, name: string) {
    const recording = org.recording(name, { state: 'pending_upload', upload: declared });
    await createRecording(at(T0), recording);
    return recording;
  }

  it('marks a pending recording uploaded when the object is the declared one, once; no count moves', async () => {
    const org = await newOrg();
    const recording = await pending(org, 'match');
    const deps = completion('Audio/MP4');
    expect(await completeUpload(deps, org.orgId, recording.id, { s3Key: KEY, sizeBytes: 5 })).toBe('uploaded');
    expect(deps.storedContentType).toHaveBeenCalledWith(KEY);
    expect(await getRecording(db, org.orgId, recording.id)).toEqual({
      ...recording,
      state: 'uploaded',
      updated_at: T1.toISOString(),
      upload: { ...declared, uploaded_bytes: 5, uploaded_content_type: 'Audio/MP4', uploaded_at: T1.toISOString() },
    });
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: recording.created_at } });

    // A repeated event changes nothing.
    expect(await completeUpload(completion('audio/mp4'), org.orgId, recording.id, { s3Key: KEY, sizeBytes: 5 })).toBe('ignored');
  });

  it('marks it failed with the reason when the object is not the declared one; a failed upload is final', async () => {
    const org = await newOrg();
    const recording = await pending(org, 'mismatch');
    expect(await completeUpload(completion('video/mp4'), org.orgId, recording.id, { s3Key: KEY, sizeBytes: 7 })).toBe('failed');
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({
      state: 'failed',
      upload_error: 'size_mismatch: declared 5 bytes, received 7; content_type_mismatch: declared audio/mp4, received video/mp4',
      upload: { ...declared, uploaded_bytes: 7, uploaded_content_type: 'video/mp4', uploaded_at: T1.toISOString() },
    });
    expect(await completeUpload(completion('audio/mp4'), org.orgId, recording.id, { s3Key: KEY, sizeBytes: 5 })).toBe('ignored');
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({ state: 'failed' });
  });

  it('judges an object gone before its type was read by its size, and records no type', async () => {
    const org = await newOrg();
    const recording = await pending(org, 'gone');
    expect(await completeUpload(completion(undefined), org.orgId, recording.id, { s3Key: KEY, sizeBytes: 5 })).toBe('uploaded');
    const stored = await getRecording(db, org.orgId, recording.id);
    expect(stored?.upload).toEqual({ ...declared, uploaded_bytes: 5, uploaded_at: T1.toISOString() });
  });

  it('ignores objects under another key, unknown recordings and recordings that were never waiting for one', async () => {
    const org = await newOrg();
    const recording = await pending(org, 'other');
    const ready = org.recording('ready');
    await createRecording(at(T0), ready);
    const deps = completion('audio/mp4');
    expect(await completeUpload(deps, org.orgId, recording.id, { s3Key: 'recordings/else.m4a', sizeBytes: 5 })).toBe('ignored');
    expect(await completeUpload(deps, org.orgId, 'rec_unknown', { s3Key: KEY, sizeBytes: 5 })).toBe('ignored');
    expect(await completeUpload(deps, org.orgId, ready.id, { s3Key: KEY, sizeBytes: 5 })).toBe('ignored');
    expect(deps.storedContentType).not.toHaveBeenCalled();
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(recording);
  });
});

describe('a change racing other writers', () => {
  /**
   * A table whose transactions each lose a race: before each one goes out, `interfere`
   * runs another writer's change through the real table.
   */
  function racingTable(interfere: (transaction: number) => Promise<void>): { table: TableContext; transactions: () => number } {
    let transactions = 0;
    const client = new Proxy(db.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: Parameters<typeof target.send>[0]) => {
          if (command instanceof TransactWriteCommand) await interfere(++transactions);
          return target.send(command);
        };
      },
    });
    return { table: { ...db, client }, transactions: () => transactions };
  }

  it('plans again on fresh data after losing a race, keeping the other writer\'s change', async () => {
    const org = await newOrg();
    const recording = org.recording('raced', { tags: [org.tagA] });
    await createRecording(at(T0), recording);
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) await updateRecording(at(T1), org.orgId, recording.id, { title: 'Their title' });
    });

    const updated = await updateRecording({ db: table, now: () => T2 }, org.orgId, recording.id, { description: 'My description' });
    expect(transactions()).toBe(2);
    expect(updated).toEqual({ ...recording, title: 'Their title', description: 'My description', updated_at: T2.toISOString() });
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(updated);
  });

  it('gives up with 409 CONCURRENT_UPDATE after 10 lost races, leaving the other writer\'s state', async () => {
    const org = await newOrg();
    const recording = org.recording('contended');
    await createRecording(at(T0), recording);
    const { table, transactions } = racingTable(async (transaction) => {
      await updateRecording({ db, now: () => new Date(T1.getTime() + transaction * 1000) }, org.orgId, recording.id, { title: `Theirs ${transaction}` });
    });

    await expect(updateRecording({ db: table, now: () => T3 }, org.orgId, recording.id, { title: 'Mine' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'CONCURRENT_UPDATE',
      message: 'The recording kept changing under this request; retry it.',
    });
    expect(transactions()).toBe(10);
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({ title: 'Theirs 10' });
  });

  it('a counter moved by another recording meanwhile is re-read, so no count is lost', async () => {
    const org = await newOrg();
    const first = org.recording('first');
    const second = org.recording('second', { created_at: '2026-01-01T06:00:00.000Z' });
    await createRecording(at(T0), first);
    // While `first` goes to the trash, `second` is created by the same recorder.
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) await createRecording(at(T0), second);
    });
    await softDeleteRecording({ db: table, now: () => T1 }, org.orgId, first.id);
    expect(transactions()).toBe(2);
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: second.created_at } });
  });
});
