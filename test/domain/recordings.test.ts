import { CreateMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { cleanUpRecording, type CleanupDeps } from '../../shared/domain/recordings/clean-up-recording';
import { completeUpload } from '../../shared/domain/recordings/complete-upload';
import { deleteRecordingPermanently, softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { expireTrashedRecording } from '../../shared/domain/recordings/expire-trashed-recording';
import { readLiveRecording } from '../../shared/domain/recordings/get-recording';
import { listPublicRecordings } from '../../shared/domain/recordings/list-public-recordings';
import { pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { restoreRecording } from '../../shared/domain/recordings/restore-recording';
import { updateRecording } from '../../shared/domain/recordings/update-recording';
import { eventConsumer } from '../../shared/events/event-consumer';
import { withChangeContext } from '../../shared/storage/change-stamp';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import type { RecordingFilter } from '../../shared/storage/recording-index';
import type { Recording } from '../../shared/storage/recording-items';
import { createRecordingObjects, recordingObjectKey, recordingObjectPrefix } from '../../shared/storage/recording-objects';
import type { RecordingParts } from '../../shared/storage/recording-part-items';
import { getRecording } from '../../shared/storage/recordings';
import { trashTimerFromItem } from '../../shared/storage/trash-timers';
import { listObjects, localDeployment, localS3, seed, unique } from '../support/api';
import { domainEvent, queuedEvents } from '../support/events';

/**
 * The recording changes (shared/domain/recordings) called directly against the emulator's
 * table with a fixed clock: what each change stores, the tag links that make tag filters
 * find live recordings, the organization's and the recorder's counters, the outcomes of an
 * upload's completion, and what a writer that keeps losing races gets.
 */
const { db } = localDeployment();
// Years ahead: the timers of the recordings these tests trash must not have run out for a TTL
// sweep with the real clock (npm start's, or a test's over the whole table), whose retention
// would then delete them under the test.
const T0 = new Date('2036-01-01T00:00:00.000Z');
const T1 = new Date('2036-01-02T00:00:00.000Z');
const T2 = new Date('2036-01-03T00:00:00.000Z');
const T3 = new Date('2036-01-04T00:00:00.000Z');
const RETENTION_DAYS = 30;
const DAY = 86_400_000;
const at = (time: Date) => ({ db, now: () => time, trashRetentionDays: RETENTION_DAYS });
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
    // The races below are between the writes each test makes: an upload landing would otherwise
    // queue the recorder's automatic transcription, a third writer racing them on the deployment.
    settings: [{ org_id: org.orgId, user_id: org.mo, settings: { auto_transcription: false } }],
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
  return {
    live: stored?.recording_count,
    trash: stored?.trash_count,
    recorder: { count: membership?.recording_count, latest: membership?.latest_recording_at },
  };
}

/** The ids a list shows, newest first. */
async function listed(org: Org, filter: Partial<RecordingFilter> = {}) {
  const { recordings, total } = await pageOfRecordings(db, {
    filter: { orgId: org.orgId, bin: 'LIVE', tagMode: 'any', ...filter },
    page: 1,
    limit: 100,
  });
  return { ids: recordings.map((recording) => recording.id), total };
}

const notFound = { statusCode: 404, code: 'RECORDING_NOT_FOUND' };

/** A stored item as it is, or undefined. */
async function storedItem(key: { PK: string; SK: string }) {
  return (await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }))).Item;
}

/** A recording's trash timer: when it runs out, and the epoch second TTL may remove it at; undefined when it has none. */
async function timerOf(org: Org, recordingId: string) {
  const item = await storedItem(keys.trashTimer(org.orgId, recordingId));
  return item && { ...trashTimerFromItem(item), expires_at_epoch: item.expires_at_epoch };
}

/** The tombstone a permanent delete leaves: its fields and its change stamp (who, which request, why). */
async function tombstoneOf(org: Org, recordingId: string) {
  const item = await storedItem(keys.tombstone(org.orgId, 'recording', recordingId));
  return (
    item && {
      resource: item.resource,
      id: item.id,
      deleted_at: item.deleted_at,
      recorded_by: item.recorded_by,
      last_change: item.last_change,
    }
  );
}

/** The sort keys of a recording's related items (summary, action items, translation, transcript header and chunks). */
async function relatedItemsOf(org: Org, recordingId: string): Promise<string[]> {
  const { Items } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `ORG#${org.orgId}`, ':from': `REC#${recordingId}#`, ':to': `REC#${recordingId}#~` },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => String(item.SK));
}

/**
 * The table as a function sees it, with every request it sends recorded (the command's name,
 * and for a transaction each write as `<Put|Delete|Update|ConditionCheck> <SK>`);
 * `beforeTransaction` runs another writer's change through the real table before each
 * transaction goes out.
 */
function observedTable(beforeTransaction?: (transaction: number) => Promise<void>) {
  const commands: string[] = [];
  const transactions: string[][] = [];
  const client = new Proxy(db.client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: Parameters<typeof target.send>[0]) => {
        commands.push(command.constructor.name);
        if (command instanceof TransactWriteCommand) {
          transactions.push(
            (command.input.TransactItems ?? []).map((item) => {
              const [kind, write] = Object.entries(item)[0] as [string, { Key?: Record<string, unknown>; Item?: Record<string, unknown> }];
              return `${kind} ${String((write.Key ?? write.Item)?.SK)}`;
            }),
          );
          await beforeTransaction?.(transactions.length);
        }
        return target.send(command);
      };
    },
  });
  return { table: { ...db, client }, commands, transactions };
}

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
    const segments = Array.from({ length: 300 }, (_, i) => ({
      speaker: i % 2 ? 'Ann' : 'Mo',
      text: `${i} ${'x'.repeat(1000)}`,
      start: i,
      end: i + 0.5,
    }));
    const parts: RecordingParts = {
      transcript: {
        header: {
          id: 'trn_1',
          language: 'en',
          segment_count: 0,
          chunk_count: 0,
          created_at: T0.toISOString(),
          updated_at: T0.toISOString(),
        },
        segments,
      },
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
    const caller = {
      kind: 'org_key' as const,
      orgId: org.orgId,
      keyId: 'key_test',
      scopes: ['recordings:read' as const],
      actor: 'key_test',
    };
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
    await expect(createRecording(at(T0), stranger)).rejects.toMatchObject({
      statusCode: 400,
      details: [expect.objectContaining({ field: 'recorded_by' })],
    });
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
    await expect(updateRecording(at(T1), org.orgId, recording.id, { tags: ['tag_unknown'] })).rejects.toMatchObject({
      statusCode: 400,
      details: [expect.objectContaining({ field: 'tags' })],
    });
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
    // Its trash timer runs out after the retention (the recording shows when); TTL removes it then, never before.
    const purgeAt = new Date(T2.getTime() + RETENTION_DAYS * DAY);
    expect(await getRecording(db, org.orgId, newest.id)).toEqual({
      ...newest,
      deleted_at: T2.toISOString(),
      updated_at: T2.toISOString(),
      purge_at: purgeAt.toISOString(),
    });
    expect(await timerOf(org, newest.id)).toEqual({
      org_id: org.orgId,
      recording_id: newest.id,
      deleted_at: T2.toISOString(),
      purge_at: purgeAt.toISOString(),
      expires_at_epoch: purgeAt.getTime() / 1000,
    });
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: older.created_at } });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect(await listed(org, { bin: 'TRASH' })).toEqual({ ids: [newest.id], total: 1 });
    await expect(softDeleteRecording(at(T2), org.orgId, newest.id)).rejects.toMatchObject(notFound);

    const restored = await restoreRecording(at(T3), org.orgId, newest.id);
    expect(restored).toEqual({ ...newest, updated_at: T3.toISOString() });
    expect(await getRecording(db, org.orgId, newest.id)).toEqual(restored);
    expect(await timerOf(org, newest.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 2, trash: 0, recorder: { count: 2, latest: newest.created_at } });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([newest.id]);
    await expect(restoreRecording(at(T3), org.orgId, newest.id)).rejects.toMatchObject(notFound);
  });

  it("trashing the recorder's only recording leaves it with none", async () => {
    const org = await newOrg();
    const only = org.recording('only');
    await createRecording(at(T0), only);
    await softDeleteRecording(at(T1), org.orgId, only.id);
    expect(await counters(org)).toEqual({ live: 0, trash: 1, recorder: { count: 0, latest: null } });
  });
});

describe('deleteRecordingPermanently', () => {
  const summary = {
    markdown: 'gone soon',
    template_id: null,
    template_name: null,
    created_at: T0.toISOString(),
    updated_at: T0.toISOString(),
  };

  it('commits one transaction and nothing else: the recording, its tag links and counts, and a tombstone naming who deleted it', async () => {
    const org = await newOrg();
    const live = org.recording('live', {
      tags: [org.tagA],
      upload: {
        s3_key: recordingObjectKey(org.orgId, `rec_live_${org.orgId}`, 'a.m4a'),
        content_type: 'audio/mp4',
        filename: 'a.m4a',
        size_bytes: 5,
      },
      related: { ...NO_RELATED, summary: true },
    });
    await createRecording(at(T0), live, { summary });
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: live.created_at } });

    const observed = observedTable();
    await withChangeContext({ actor: { kind: 'user', id: org.ann }, correlationId: 'corr-delete' }, () =>
      deleteRecordingPermanently({ db: observed.table, now: () => T1 }, org.orgId, live.id),
    );
    // Reads: the recording, its recorder's legal hold, its recorder and the recorder's newest other
    // live recording. No batch delete of parts and no S3 call (the function has no object store at all).
    expect(observed.commands).toEqual(['GetCommand', 'GetCommand', 'GetCommand', 'QueryCommand', 'TransactWriteCommand']);
    expect(observed.transactions).toEqual([
      [
        `Delete REC#${live.id}`,
        `Delete ${live.created_at}#${live.id}`,
        'Update ORG',
        `Update DAY#${live.created_at.slice(0, 10)}`,
        `Update MONTH#${live.created_at.slice(0, 7)}`,
        `Update MEMBER#${org.mo}`,
        `Put DELETED#recording#${live.id}`,
      ],
    ]);
    expect(await getRecording(db, org.orgId, live.id)).toBeUndefined();
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([]);
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });
    expect(await tombstoneOf(org, live.id)).toEqual({
      resource: 'recording',
      id: live.id,
      deleted_at: T1.toISOString(),
      recorded_by: org.mo,
      last_change: { id: expect.stringMatching(/^[0-9a-f]{16}$/), actor: { kind: 'user', id: org.ann }, correlation_id: 'corr-delete' },
    });
    await expect(deleteRecordingPermanently(at(T1), org.orgId, live.id)).rejects.toMatchObject(notFound);
  });

  it("from the trash: takes the trash count and the trash timer, reading nothing but the recording and its recorder's hold", async () => {
    const org = await newOrg();
    const recording = org.recording('trashed');
    await createRecording(at(T0), recording);
    await softDeleteRecording(at(T1), org.orgId, recording.id);
    expect(await timerOf(org, recording.id)).toBeDefined();

    const observed = observedTable();
    await deleteRecordingPermanently({ db: observed.table, now: () => T2 }, org.orgId, recording.id);
    expect(observed.commands).toEqual(['GetCommand', 'GetCommand', 'TransactWriteCommand']);
    expect(observed.transactions).toEqual([
      [
        `Delete REC#${recording.id}`,
        'Update ORG',
        `Update DAY#${recording.created_at.slice(0, 10)}`,
        `Update MONTH#${recording.created_at.slice(0, 7)}`,
        `Delete TRASHTIMER#${recording.id}`,
        `Put DELETED#recording#${recording.id}`,
      ],
    ]);
    expect(await getRecording(db, org.orgId, recording.id)).toBeUndefined();
    expect(await timerOf(org, recording.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 0, trash: 0, recorder: { count: 0, latest: null } });
    // Outside a request the service itself deleted it.
    expect(await tombstoneOf(org, recording.id)).toMatchObject({
      deleted_at: T2.toISOString(),
      last_change: { actor: null, correlation_id: null },
    });
  });

  it('unknown recordings are 404 and write nothing', async () => {
    const org = await newOrg();
    const observed = observedTable();
    await expect(deleteRecordingPermanently({ db: observed.table, now: () => T1 }, org.orgId, 'rec_unknown')).rejects.toMatchObject(
      notFound,
    );
    expect(observed.commands).toEqual(['GetCommand']);
  });
});

describe('expireTrashedRecording (trash retention)', () => {
  const dueEvent = (org: Org, recordingId: string) =>
    domainEvent({
      type: 'recording.retention_due',
      org_id: org.orgId,
      resource: { type: 'recording', id: recordingId },
      correlation_id: 'corr-retention',
    });
  /** When a recording trashed at T1 is due. */
  const DUE = new Date(T1.getTime() + RETENTION_DAYS * DAY);

  /** A recording of mo's with a tag, moved to the trash at T1 (its timer set), beside a live one. */
  async function trashedAtT1() {
    const org = await newOrg();
    const recording = org.recording('old', { tags: [org.tagA] });
    const other = org.recording('other', { created_at: '2035-12-01T00:00:00.000Z' });
    await createRecording(at(T0), recording);
    await createRecording(at(T0), other);
    await softDeleteRecording(at(T1), org.orgId, recording.id);
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: other.created_at } });
    return { org, recording, other };
  }

  it('before the retention has run out: nothing is deleted (the timer is set again for its time)', async () => {
    const { org, recording, other } = await trashedAtT1();
    expect(await expireTrashedRecording(at(new Date(DUE.getTime() - 1)), dueEvent(org, recording.id))).toBe('not_due');
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({ deleted_at: T1.toISOString() });
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: other.created_at } });
    expect(await timerOf(org, recording.id)).toMatchObject({ purge_at: DUE.toISOString() });
    expect(await tombstoneOf(org, recording.id)).toBeUndefined();
  });

  it('once it has: deleted for good as a manual permanent delete, counts fixed, by no actor and for retention', async () => {
    const { org, recording, other } = await trashedAtT1();
    expect(await expireTrashedRecording(at(DUE), dueEvent(org, recording.id))).toBe('deleted');
    expect(await getRecording(db, org.orgId, recording.id)).toBeUndefined();
    expect(await timerOf(org, recording.id)).toBeUndefined();
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: other.created_at } });
    expect(await listed(org, { bin: 'TRASH' })).toEqual({ ids: [], total: 0 });
    expect(await tombstoneOf(org, recording.id)).toEqual({
      resource: 'recording',
      id: recording.id,
      deleted_at: DUE.toISOString(),
      recorded_by: org.mo,
      last_change: { id: expect.any(String), actor: null, correlation_id: 'corr-retention', reason: 'retention' },
    });
    // A redelivered event finds nothing to do.
    expect(await expireTrashedRecording(at(DUE), dueEvent(org, recording.id))).toBe('not_in_trash');
    expect(await counters(org)).toEqual({ live: 1, trash: 0, recorder: { count: 1, latest: other.created_at } });
  });

  it('a recording restored meanwhile stays where it is', async () => {
    const { org, recording } = await trashedAtT1();
    await restoreRecording(at(T2), org.orgId, recording.id);
    expect(await expireTrashedRecording(at(new Date(DUE.getTime() + DAY)), dueEvent(org, recording.id))).toBe('not_in_trash');
    expect(await getRecording(db, org.orgId, recording.id)).toEqual({ ...recording, updated_at: T2.toISOString() });
    expect(await counters(org)).toMatchObject({ live: 2, trash: 0 });
    expect(await timerOf(org, recording.id)).toBeUndefined();
  });

  it('a restore that commits between its read and its delete wins: the recording comes back whole', async () => {
    const { org, recording } = await trashedAtT1();
    const observed = observedTable(async (transaction) => {
      if (transaction === 1) await restoreRecording(at(T2), org.orgId, recording.id);
    });
    expect(await expireTrashedRecording({ ...at(DUE), db: observed.table }, dueEvent(org, recording.id))).toBe('not_in_trash');
    expect(observed.transactions).toHaveLength(1);
    expect(await getRecording(db, org.orgId, recording.id)).toEqual({ ...recording, updated_at: T2.toISOString() });
    expect((await listed(org, { tagIds: [org.tagA] })).ids).toEqual([recording.id]);
    expect(await counters(org)).toMatchObject({ live: 2, trash: 0, recorder: { count: 2 } });
    expect(await tombstoneOf(org, recording.id)).toBeUndefined();
  });

  it('a recording trashed again since is judged by its current stay in the trash', async () => {
    const { org, recording } = await trashedAtT1();
    await restoreRecording(at(T2), org.orgId, recording.id);
    await softDeleteRecording(at(T3), org.orgId, recording.id);
    expect(await expireTrashedRecording(at(new Date(DUE.getTime() + 60_000)), dueEvent(org, recording.id))).toBe('not_due');
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({ deleted_at: T3.toISOString() });
    expect(await timerOf(org, recording.id)).toMatchObject({
      deleted_at: T3.toISOString(),
      purge_at: new Date(T3.getTime() + RETENTION_DAYS * DAY).toISOString(),
    });
  });

  it('a retention raised since the timer was set: not due yet, the timer set for the new retention', async () => {
    const { org, recording } = await trashedAtT1();
    const longer = { ...at(DUE), trashRetentionDays: 60 };
    expect(await expireTrashedRecording(longer, dueEvent(org, recording.id))).toBe('not_due');
    const later = new Date(T1.getTime() + 60 * DAY);
    expect(await timerOf(org, recording.id)).toMatchObject({ purge_at: later.toISOString(), expires_at_epoch: later.getTime() / 1000 });
    expect(await expireTrashedRecording({ ...longer, now: () => later }, dueEvent(org, recording.id))).toBe('deleted');
  });

  it('a live or unknown recording: nothing', async () => {
    const { org, other } = await trashedAtT1();
    expect(await expireTrashedRecording(at(DUE), dueEvent(org, other.id))).toBe('not_in_trash');
    expect(await expireTrashedRecording(at(DUE), dueEvent(org, 'rec_unknown'))).toBe('not_in_trash');
    expect(await counters(org)).toMatchObject({ live: 1, trash: 1 });
  });
});

describe('cleanUpDeletedRecording (object cleanup)', () => {
  const { runtime } = localDeployment();
  const objects = createRecordingObjects({ bucket: runtime.bucketName, region: runtime.region, endpoint: runtime.s3Endpoint });
  const { s3, bucket } = localS3();
  const putObject = (key: string) => s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'hello', ContentType: 'audio/mp4' }));
  const deletedEvent = (org: Org, recordingId: string) =>
    domainEvent({
      type: 'recording.deleted',
      org_id: org.orgId,
      resource: { type: 'recording', id: recordingId },
      data: { recorded_by: org.mo, reason: 'request' },
    });
  /** The consumer's handler as functions/events/clean-up-recording.ts builds it, with these dependencies. */
  const consumer = (deps: CleanupDeps) => eventConsumer('cleanUpRecording', async (event) => void (await cleanUpRecording(deps, event)));
  const segments = Array.from({ length: 300 }, (_, i) => ({ speaker: 'Mo', text: `${i} ${'x'.repeat(1000)}`, start: i, end: i + 1 }));
  const parts: RecordingParts = {
    transcript: {
      header: { id: 'trn_1', language: 'en', segment_count: 0, chunk_count: 0, created_at: T0.toISOString(), updated_at: T0.toISOString() },
      segments,
    },
    summary: { markdown: '## Notes', template_id: null, template_name: null, created_at: T0.toISOString(), updated_at: T0.toISOString() },
    action_items: [{ id: 'act_1', text: 'Send the deck', assignee: null, due_date: null, completed: false }],
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
  const ALL_RELATED = { transcript: true, summary: true, action_items: true, translation: true };

  it('removes every related item and every object under the recording, nothing of a neighbour; a redelivery finds nothing and succeeds', async () => {
    const org = await newOrg();
    const recording = org.recording('clean', { related: ALL_RELATED });
    const key = recordingObjectKey(org.orgId, recording.id, 'call.m4a');
    await createRecording(
      at(T0),
      { ...recording, upload: { s3_key: key, content_type: 'audio/mp4', filename: 'call.m4a', size_bytes: 5 } },
      parts,
    );
    const prefix = recordingObjectPrefix(org.orgId, recording.id);
    // A neighbour whose id starts with this one's: its prefix is not under this one's.
    const neighbour = recordingObjectPrefix(org.orgId, `${recording.id}x`);
    await Promise.all([putObject(key), putObject(`${prefix}second-take.m4a`), putObject(`${neighbour}call.m4a`)]);
    expect(await relatedItemsOf(org, recording.id)).toHaveLength(6); // summary, actions, translation, transcript header and 2 chunks
    await deleteRecordingPermanently(at(T1), org.orgId, recording.id);

    const event = deletedEvent(org, recording.id);
    const handler = consumer({ db, objects });
    expect(await handler(queuedEvents([event]))).toEqual({ batchItemFailures: [] });
    expect(await listObjects(prefix)).toEqual([]);
    expect(await relatedItemsOf(org, recording.id)).toEqual([]);
    expect(await listObjects(neighbour)).toHaveLength(1);

    expect(await handler(queuedEvents([event], 2))).toEqual({ batchItemFailures: [] });
    expect(await cleanUpRecording({ db, objects }, event)).toEqual({
      relatedItems: 0,
      objects: 0,
      uploadsAborted: 0,
      skipped: false,
    });
    expect(await listObjects(neighbour)).toHaveLength(1);
  });

  it('S3 failing once: that delivery alone fails, the next one removes the object', async () => {
    const org = await newOrg();
    // Recordings never stored (no tombstone, so only this test's deliveries clean them up).
    const [failing, fine] = [`rec_s3fail_${org.orgId}`, `rec_s3fine_${org.orgId}`];
    await Promise.all([
      putObject(recordingObjectKey(org.orgId, failing, 'call.m4a')),
      putObject(recordingObjectKey(org.orgId, fine, 'call.m4a')),
    ]);
    let failures = 0;
    const flaky: CleanupDeps['objects'] = {
      deletePrefix: async (prefix) => {
        if (prefix.includes(failing) && failures++ === 0) throw new Error('S3 unavailable');
        return objects.deletePrefix(prefix);
      },
    };
    const handler = consumer({ db, objects: flaky });
    const [failingEvent, fineEvent] = [deletedEvent(org, failing), deletedEvent(org, fine)];

    expect(await handler(queuedEvents([failingEvent, fineEvent], 1))).toEqual({
      batchItemFailures: [{ itemIdentifier: `msg-0-${failingEvent.id}` }],
    });
    expect(await listObjects(recordingObjectPrefix(org.orgId, failing))).toHaveLength(1);
    expect(await listObjects(recordingObjectPrefix(org.orgId, fine))).toEqual([]);

    expect(await handler(queuedEvents([failingEvent], 2))).toEqual({ batchItemFailures: [] });
    expect(await listObjects(recordingObjectPrefix(org.orgId, failing))).toEqual([]);
  });

  it('removes the objects where the S3 emulator cannot list unfinished uploads (there is nothing it can abort)', async () => {
    const org = await newOrg();
    const recordingId = `rec_multipart_${org.orgId}`;
    await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: recordingObjectKey(org.orgId, recordingId, 'long.m4a') }));
    await putObject(recordingObjectKey(org.orgId, recordingId, 'short.m4a'));
    expect(await objects.deletePrefix(recordingObjectPrefix(org.orgId, recordingId))).toEqual({ objects: 1, uploadsAborted: 0 });
    expect(await listObjects(recordingObjectPrefix(org.orgId, recordingId))).toEqual([]);
  });

  it('touches nothing of a recording stored again under the id', async () => {
    const org = await newOrg();
    const recording = org.recording('again', { related: { ...NO_RELATED, summary: true } });
    await createRecording(at(T0), recording, { summary: parts.summary });
    const key = recordingObjectKey(org.orgId, recording.id, 'call.m4a');
    await putObject(key);
    expect(await cleanUpRecording({ db, objects }, deletedEvent(org, recording.id))).toEqual({
      relatedItems: 0,
      objects: 0,
      uploadsAborted: 0,
      skipped: true,
    });
    expect(await relatedItemsOf(org, recording.id)).toEqual([`REC#${recording.id}#SUMMARY`]);
    expect(await listObjects(key)).toHaveLength(1);
  });

  it("refuses an event it does not handle, and a prefix that is not one recording's", async () => {
    const org = await newOrg();
    await expect(cleanUpRecording({ db, objects }, { ...deletedEvent(org, 'rec_x'), type: 'recording.trashed' })).rejects.toThrow(
      'recording.deleted only',
    );
    for (const prefix of ['', 'recordings/', `recordings/${org.orgId}/`, `recordings/${org.orgId}/rec_x/call.m4a`, 'other/org/rec/']) {
      await expect(objects.deletePrefix(prefix)).rejects.toThrow("not a recording's prefix");
    }
  });
});

describe('completeUpload', () => {
  const KEY = 'recordings/pending.m4a';
  const declared = { s3_key: KEY, content_type: 'audio/mp4', filename: 'pending.m4a', size_bytes: 5 };
  const completion = (contentType: string | undefined) => ({
    ...at(T1),
    storedContentType: jest.fn(async (_key: string) => contentType),
    deleteObject: jest.fn(async (_key: string) => undefined),
  });

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

  it('ignores objects under another key and recordings that were never waiting for one; removes a file whose recording is gone', async () => {
    const org = await newOrg();
    const recording = await pending(org, 'other');
    const ready = org.recording('ready');
    await createRecording(at(T0), ready);
    const deps = completion('audio/mp4');
    expect(await completeUpload(deps, org.orgId, recording.id, { s3Key: 'recordings/else.m4a', sizeBytes: 5 })).toBe('ignored');
    expect(await completeUpload(deps, org.orgId, ready.id, { s3Key: KEY, sizeBytes: 5 })).toBe('ignored');
    expect(deps.storedContentType).not.toHaveBeenCalled();
    expect(await completeUpload(deps, org.orgId, 'rec_unknown', { s3Key: 'recordings/else.m4a', sizeBytes: 5 })).toBe('ignored');
    expect(deps.deleteObject).not.toHaveBeenCalled();
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(recording);
    // A recording deleted for good (or its recorder erased) with its upload URL still valid: the late file goes.
    await deleteRecordingPermanently(at(T1), org.orgId, recording.id);
    expect(await completeUpload(deps, org.orgId, recording.id, { s3Key: KEY, sizeBytes: 5 })).toBe('removed');
    expect(deps.deleteObject).toHaveBeenCalledWith(KEY);
  });
});

describe('a change racing other writers', () => {
  /** A table whose transactions each lose a race: before each one goes out, `interfere` runs another writer's change. */
  function racingTable(interfere: (transaction: number) => Promise<void>): { table: TableContext; transactions: () => number } {
    const observed = observedTable(interfere);
    return { table: observed.table, transactions: () => observed.transactions.length };
  }

  it("plans again on fresh data after losing a race, keeping the other writer's change", async () => {
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

  it("gives up with 409 CONCURRENT_UPDATE after 10 lost races, leaving the other writer's state", async () => {
    const org = await newOrg();
    const recording = org.recording('contended');
    await createRecording(at(T0), recording);
    const { table, transactions } = racingTable(async (transaction) => {
      await updateRecording({ db, now: () => new Date(T1.getTime() + transaction * 1000) }, org.orgId, recording.id, {
        title: `Theirs ${transaction}`,
      });
    });

    await expect(updateRecording({ db: table, now: () => T3 }, org.orgId, recording.id, { title: 'Mine' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'CONCURRENT_UPDATE',
      message: 'The recording kept changing under this request; retry it.',
    });
    expect(transactions()).toBe(10);
    expect(await getRecording(db, org.orgId, recording.id)).toMatchObject({ title: 'Theirs 10' });
  });

  it('a trash racing an update keeps the update: the trash is planned again on the updated recording', async () => {
    const org = await newOrg();
    const recording = org.recording('trash_raced', { tags: [org.tagA] });
    await createRecording(at(T0), recording);
    // Both read the live recording; the update commits first, then the trash.
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) await updateRecording(at(T1), org.orgId, recording.id, { title: 'Their title' });
    });

    await softDeleteRecording({ ...at(T2), db: table }, org.orgId, recording.id);
    expect(transactions()).toBe(2);
    expect(await getRecording(db, org.orgId, recording.id)).toEqual({
      ...recording,
      title: 'Their title',
      deleted_at: T2.toISOString(),
      updated_at: T2.toISOString(),
      purge_at: new Date(T2.getTime() + RETENTION_DAYS * DAY).toISOString(),
    });
    expect(await counters(org)).toMatchObject({ live: 0, trash: 1, recorder: { count: 0 } });
  });

  /** A pending recording whose upload lands (completeUpload at `landsAt`) while another change is on its way. */
  const KEY = 'recordings/raced.m4a';
  const declared = { s3_key: KEY, content_type: 'audio/mp4', filename: 'raced.m4a', size_bytes: 5 };
  const uploadLands = (org: Org, recordingId: string, landsAt: Date) =>
    completeUpload(
      { ...at(landsAt), storedContentType: async () => 'audio/mp4', deleteObject: async () => undefined },
      org.orgId,
      recordingId,
      { s3Key: KEY, sizeBytes: 5 },
    );
  const uploaded = (landedAt: Date) => ({
    state: 'uploaded',
    upload: { ...declared, uploaded_bytes: 5, uploaded_content_type: 'audio/mp4', uploaded_at: landedAt.toISOString() },
  });

  it('a trash racing an upload completion keeps the upload', async () => {
    const org = await newOrg();
    const recording = org.recording('trash_upload', { state: 'pending_upload', upload: declared });
    await createRecording(at(T0), recording);
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) expect(await uploadLands(org, recording.id, T1)).toBe('uploaded');
    });

    await softDeleteRecording({ ...at(T2), db: table }, org.orgId, recording.id);
    expect(transactions()).toBe(2);
    expect(await getRecording(db, org.orgId, recording.id)).toEqual({
      ...recording,
      ...uploaded(T1),
      deleted_at: T2.toISOString(),
      updated_at: T2.toISOString(),
      purge_at: new Date(T2.getTime() + RETENTION_DAYS * DAY).toISOString(),
    });
  });

  it('a restore racing an upload completion keeps the upload', async () => {
    const org = await newOrg();
    const recording = org.recording('restore_upload', { state: 'pending_upload', upload: declared });
    await createRecording(at(T0), recording);
    await softDeleteRecording(at(T1), org.orgId, recording.id);
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) expect(await uploadLands(org, recording.id, T2)).toBe('uploaded');
    });

    const restored = await restoreRecording({ ...at(T3), db: table }, org.orgId, recording.id);
    expect(transactions()).toBe(2);
    expect(restored).toEqual({ ...recording, ...uploaded(T2), updated_at: T3.toISOString() });
    expect(await getRecording(db, org.orgId, recording.id)).toEqual(restored);
    expect(await counters(org)).toMatchObject({ live: 1, trash: 0, recorder: { count: 1 } });
    expect(await timerOf(org, recording.id)).toBeUndefined();
  });

  it('a counter moved by another recording meanwhile is re-read, so no count is lost', async () => {
    const org = await newOrg();
    const first = org.recording('first');
    const second = org.recording('second', { created_at: new Date(T0.getTime() + 6 * 3_600_000).toISOString() });
    await createRecording(at(T0), first);
    // While `first` goes to the trash, `second` is created by the same recorder.
    const { table, transactions } = racingTable(async (transaction) => {
      if (transaction === 1) await createRecording(at(T0), second);
    });
    await softDeleteRecording({ ...at(T1), db: table }, org.orgId, first.id);
    expect(transactions()).toBe(2);
    expect(await counters(org)).toEqual({ live: 1, trash: 1, recorder: { count: 1, latest: second.created_at } });
  });
});
