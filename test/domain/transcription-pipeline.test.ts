import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OrgKeyCaller, UserKeyCaller } from '../../shared/auth/policy';
import { finishTranscriptionJob } from '../../shared/domain/transcription/finish-transcription-job';
import { transcribeRecording } from '../../shared/domain/transcription/transcribe-recording';
import { queueTranscriptionOnUpload } from '../../shared/domain/transcription/queue-transcription-on-upload';
import { startQueuedTranscription } from '../../shared/domain/transcription/start-transcription-job';
import { jobNameOf, outputKeyOf } from '../../shared/domain/transcription/transcription-changes';
import { keys } from '../../shared/storage/keys';
import { recordingItem, type RecordingTranscription } from '../../shared/storage/recording-items';
import { getRecording, getRecordingWithParts } from '../../shared/storage/recordings';
import { setTranscriptionAllowance } from '../../shared/storage/transcription-usage';
import { failureOf } from '../../shared/transcription/transcription-failures';
import { localDeployment, seed, unique } from '../support/api';
import { jobDepsAt, putUploadedRecording, transcribeOutput, usageOf, type TestJobDeps } from '../support/transcription';

/**
 * The transcription pipeline's domain functions on the local table, with Transcribe's job API
 * and its output objects in memory and a chosen clock: queue, start, finish (usage counted
 * once, transcript replaced on a re-run, results discarded with their recording), refusals.
 * Recordings are written already queued (an INSERT gives no queued event), so the
 * deployment's own consumers never race the test.
 */
const { db } = localDeployment();
const AT = '2030-03-10T10:00:00.000Z';
const MONTH = '2030-03';

async function organization(settings: Record<string, unknown> = {}) {
  const u = unique();
  const orgId = `org_dtr_${u}`;
  const userId = `usr_dtr_${u}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Transcription ${u}` }],
    users: [{ id: userId, email: `tr.${u}@example.com`, display_name: 'Tia' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' }],
    settings: [{ org_id: orgId, user_id: userId, settings }],
  });
  return { orgId, userId, u };
}

const queuedRun = (attempt = 1): RecordingTranscription => ({
  status: 'queued',
  attempt,
  job_language: 'en-US',
  queued_at: AT,
  watch_due_at: '2030-03-10T10:10:00.000Z',
});

/** Starts the queued attempt, then lets Transcribe complete it with these words. */
async function runJob(
  deps: TestJobDeps,
  orgId: string,
  recordingId: string,
  attempt: number,
  words: Parameters<typeof transcribeOutput>[1],
) {
  expect(await startQueuedTranscription(deps, orgId, recordingId, attempt)).toBe('started');
  const jobName = jobNameOf(orgId, recordingId, attempt);
  deps.jobs.statuses.set(jobName, { status: 'COMPLETED' });
  deps.outputs.objects.set(outputKeyOf(orgId, recordingId, attempt), transcribeOutput(jobName, words));
  return jobName;
}

const TWO_SPEAKERS: Parameters<typeof transcribeOutput>[1] = [
  ['spk_0', 'Budget', 0.5, 0.9],
  ['spk_0', 'approved', 1.0, 1.6],
  ['spk_0', '.', null, null],
  ['spk_1', 'Great', 2.0, 2.4],
  ['spk_0', 'Next', 8.0, 8.3],
  ['spk_0', 'item', 8.4, 70.2],
];

describe('a queued transcription runs to completion', () => {
  it('starts the job on the file in the language of the attempt, stores the turns, counts billed minutes once, and removes the output', async () => {
    const { orgId, userId, u } = await organization();
    const recordingId = `rec_dtr_${u}`;
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun() });
    const clock = { now: new Date('2030-03-10T10:00:05.000Z') };
    const deps = jobDepsAt(db, clock);

    const jobName = await runJob(deps, orgId, recordingId, 1, TWO_SPEAKERS);
    expect(deps.jobs.started[0]).toMatchObject({
      jobName,
      key: `recordings/${orgId}/${recordingId}/call.wav`,
      outputKey: `recordings/${orgId}/${recordingId}/transcribe/1.json`,
      language: { languageCode: 'en-US' },
    });
    clock.now = new Date('2030-03-10T10:02:00.000Z');
    expect(await finishTranscriptionJob(deps, jobName)).toBe('completed');

    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(recording).toMatchObject({
      state: 'ready',
      language: 'en-US',
      duration: 70.2,
      transcription: { status: 'completed', billed_minutes: 2 },
    });
    expect(recording?.transcription?.watch_due_at).toBeUndefined();
    expect(parts.transcript?.segments.map((s) => s.speaker)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 1']);
    expect(parts.transcript?.header).toMatchObject({ language: 'en-US', segment_count: 3, chunk_set: 1 });
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 2, member: 2 });
    expect(deps.outputs.objects.size).toBe(0);

    // The same job event again: nothing moves.
    expect(await finishTranscriptionJob(deps, jobName)).toBe('duplicate');
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 2, member: 2 });
  });

  it('a re-run replaces the transcript when it completes (the old chunk set goes) and is billed again', async () => {
    const { orgId, userId, u } = await organization();
    const recordingId = `rec_dtr_${u}`;
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun() });
    const clock = { now: new Date('2030-03-10T10:00:05.000Z') };
    const deps = jobDepsAt(db, clock);
    await finishTranscriptionJob(deps, await runJob(deps, orgId, recordingId, 1, TWO_SPEAKERS));

    // Queued again as Transcribe recording leaves it (written as a new item, so the deployment's own starter sees no queued event).
    const done = await getRecording(db, orgId, recordingId);
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.recording(orgId, recordingId) }));
    await putUploadedRecording(db, {
      orgId,
      userId,
      id: recordingId,
      at: done!.updated_at,
      transcription: queuedRun(2),
      related: { transcript: true },
    });
    // While it runs, the first transcript stays readable.
    expect((await getRecordingWithParts(db, orgId, recordingId)).parts.transcript?.segments).toHaveLength(3);
    await finishTranscriptionJob(deps, await runJob(deps, orgId, recordingId, 2, [['spk_0', 'Only', 1, 2]]));

    const { parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(parts.transcript?.segments).toEqual([{ speaker: 'Speaker 1', text: 'Only', start: 1, end: 2 }]);
    expect(parts.transcript?.header.chunk_set).toBe(2);
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 3, member: 3 });
  });

  it('concurrent completions of one member never lose a count', async () => {
    const { orgId, userId, u } = await organization();
    const ids = Array.from({ length: 6 }, (_, i) => `rec_dtr_${u}_${i}`);
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    const jobs = [];
    for (const id of ids) {
      await putUploadedRecording(db, { orgId, userId, id, at: AT, transcription: queuedRun() });
      jobs.push(await runJob(deps, orgId, id, 1, [['spk_0', 'word', 0, 61]]));
    }
    const outcomes = await Promise.all(jobs.map((jobName) => finishTranscriptionJob(deps, jobName)));
    expect(outcomes).toEqual(ids.map(() => 'completed'));
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 12, member: 12 });
  });

  it('a failed job leaves the recording ready with `<CODE>: <reason>` and bills nothing', async () => {
    const { orgId, userId, u } = await organization();
    const recordingId = `rec_dtr_${u}`;
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun() });
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    await startQueuedTranscription(deps, orgId, recordingId, 1);
    const jobName = jobNameOf(orgId, recordingId, 1);
    const reason = 'The media format provided does not match the detected media format.';
    deps.jobs.statuses.set(jobName, { status: 'FAILED', failureReason: reason });

    expect(await finishTranscriptionJob(deps, jobName)).toBe('failed');
    const recording = await getRecording(db, orgId, recordingId);
    const { code } = failureOf(reason);
    expect(recording).toMatchObject({ state: 'ready', transcription: { status: 'failed', error_code: code } });
    expect(recording?.transcript_error?.startsWith(`${code}: `)).toBe(true);
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 0, member: 0 });
  });
});

describe('a result whose recording left is discarded, leaving nothing behind', () => {
  it('trashed while running: the recording is as before the run, no chunk and no output stay', async () => {
    const { orgId, userId, u } = await organization();
    const recordingId = `rec_dtr_${u}`;
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun() });
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    const jobName = await runJob(deps, orgId, recordingId, 1, TWO_SPEAKERS);
    const running = await getRecording(db, orgId, recordingId);
    if (!running) throw new Error('the recording is gone');
    // In the trash, as Delete recording's transaction leaves the item (the timer is not needed here).
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: recordingItem({ ...running, deleted_at: '2030-03-10T10:01:00.000Z', updated_at: '2030-03-10T10:01:00.000Z' }),
      }),
    );

    expect(await finishTranscriptionJob(deps, jobName)).toBe('discarded');
    const { recording, parts } = await getRecordingWithParts(db, orgId, recordingId);
    expect(recording).toMatchObject({ state: 'uploaded', deleted_at: '2030-03-10T10:01:00.000Z' });
    expect(recording?.transcription).toBeUndefined();
    expect(parts.transcript).toBeUndefined();
    expect(deps.outputs.objects.size).toBe(0);
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 0, member: 0 });
  });

  it('deleted for good while running: the output is removed and nothing is counted', async () => {
    const { orgId, userId, u } = await organization();
    const recordingId = `rec_dtr_${u}`;
    await putUploadedRecording(db, { orgId, userId, id: recordingId, at: AT, transcription: queuedRun() });
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    const jobName = await runJob(deps, orgId, recordingId, 1, TWO_SPEAKERS);
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.recording(orgId, recordingId) }));

    expect(await finishTranscriptionJob(deps, jobName)).toBe('discarded');
    expect(deps.outputs.objects.size).toBe(0);
    expect((await getRecordingWithParts(db, orgId, recordingId)).parts.transcript).toBeUndefined();
    expect(await usageOf(db, orgId, MONTH, userId)).toEqual({ org: 0, member: 0 });
  });
});

describe('refusals and the automatic transcription', () => {
  it('Transcribe recording refuses what cannot be transcribed now', async () => {
    const { orgId, userId, u } = await organization({ conversation_language: 'German' });
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    const org: OrgKeyCaller = { kind: 'org_key', orgId, keyId: 'key_x', scopes: ['recordings:write'], actor: 'key_x' };
    const other: UserKeyCaller = {
      kind: 'user_key',
      orgId,
      userId: `usr_other_${u}`,
      keyId: 'key_y',
      role: 'member',
      scopes: ['recordings:write'],
      actor: `usr_other_${u}`,
    };
    const idle = `rec_dtr_${u}_idle`;
    await putUploadedRecording(db, { orgId, userId, id: idle, at: AT });
    const busy = `rec_dtr_${u}_busy`;
    await putUploadedRecording(db, { orgId, userId, id: busy, at: AT, transcription: queuedRun() });

    await expect(transcribeRecording(deps, other, idle, { language: 'auto' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'RECORDING_NOT_FOUND',
    });
    await expect(transcribeRecording(deps, org, busy, { language: 'auto' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'TRANSCRIPTION_IN_PROGRESS',
    });
    await expect(transcribeRecording(deps, org, `rec_dtr_${u}_none`, { language: 'auto' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'RECORDING_NOT_FOUND',
    });
    // The member's conversation language picks the job's.
    expect((await transcribeRecording(deps, org, idle, { language: 'auto' })).transcription).toMatchObject({
      status: 'queued',
      attempt: 1,
      job_language: 'de-DE',
    });

    await setTranscriptionAllowance(db, orgId, 0, AT);
    const another = `rec_dtr_${u}_another`;
    await putUploadedRecording(db, { orgId, userId, id: another, at: AT });
    await expect(transcribeRecording(deps, org, another, { language: 'en-US' })).rejects.toMatchObject({
      statusCode: 403,
      code: 'TRANSCRIPTION_QUOTA_EXCEEDED',
    });
  });

  it('on upload: auto_transcription false leaves it uploaded; a used-up allowance fails it with TRANSCRIPTION_QUOTA_EXCEEDED', async () => {
    const off = await organization({ auto_transcription: false });
    const deps = jobDepsAt(db, { now: new Date('2030-03-10T10:00:05.000Z') });
    const event = (orgId: string, id: string) => ({
      type: 'recording.uploaded' as const,
      org_id: orgId,
      resource: { type: 'recording' as const, id },
    });
    await putUploadedRecording(db, { orgId: off.orgId, userId: off.userId, id: `rec_dtr_${off.u}`, at: AT });
    expect(await queueTranscriptionOnUpload(deps, event(off.orgId, `rec_dtr_${off.u}`))).toBe('not_wanted');
    expect(await getRecording(db, off.orgId, `rec_dtr_${off.u}`)).toMatchObject({ state: 'uploaded' });

    const capped = await organization();
    await setTranscriptionAllowance(db, capped.orgId, 0, AT);
    await putUploadedRecording(db, { orgId: capped.orgId, userId: capped.userId, id: `rec_dtr_${capped.u}`, at: AT });
    expect(await queueTranscriptionOnUpload(deps, event(capped.orgId, `rec_dtr_${capped.u}`))).toBe('quota_exceeded');
    const refused = await getRecording(db, capped.orgId, `rec_dtr_${capped.u}`);
    expect(refused).toMatchObject({ state: 'ready', transcription: { status: 'failed', error_code: 'TRANSCRIPTION_QUOTA_EXCEEDED' } });
    expect(refused?.transcript_error).toMatch(/^TRANSCRIPTION_QUOTA_EXCEEDED: /);
    // Redelivered: left alone.
    expect(await queueTranscriptionOnUpload(deps, event(capped.orgId, `rec_dtr_${capped.u}`))).toBe('ignored');
  });
});
