import { sweepTranscriptions } from '../../shared/domain/transcription/sweep-transcriptions';
import { isTranscriptionInFlight, jobNameOf, outputKeyOf } from '../../shared/domain/transcription/transcription-changes';
import { getRecording } from '../../shared/storage/recordings';
import { dueTranscriptionWatches } from '../../shared/storage/transcriptions';
import { localDeployment, seed, unique } from '../support/api';
import { jobDepsAt, putUploadedRecording, transcribeOutput } from '../support/transcription';

/**
 * The sweeper with a chosen clock, in 2001 so that only this suite's watch items are due:
 * it starts attempts whose start never came (or was throttled), finishes jobs whose
 * completion event was lost, fails jobs stuck past the bound, and leaves what is not due.
 */
const { db } = localDeployment();
const T0 = '2001-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);

async function organization() {
  const u = unique();
  const orgId = `org_dsw_${u}`;
  const userId = `usr_dsw_${u}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Sweeper ${u}` }],
    users: [{ id: userId, email: `sw.${u}@example.com`, display_name: 'Sam' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' }],
  });
  return { orgId, userId, u };
}

describe('the sweeper', () => {
  it('starts a queued attempt once its watch is due, not before; a full Transcribe quota keeps it queued', async () => {
    const { orgId, userId, u } = await organization();
    const id = `rec_dsw_${u}_q`;
    await putUploadedRecording(db, {
      orgId,
      userId,
      id,
      at: T0,
      transcription: { status: 'queued', attempt: 1, job_language: 'identify', queued_at: T0, watch_due_at: at(10).toISOString() },
    });
    const clock = { now: at(9) };
    const deps = jobDepsAt(db, clock);

    expect((await sweepTranscriptions(deps)).started).toBe(0);
    clock.now = at(11);
    deps.jobs.quotaFull = true;
    expect((await sweepTranscriptions(deps)).throttled).toBe(1);
    expect(await getRecording(db, orgId, id)).toMatchObject({ transcription: { status: 'queued', watch_due_at: at(13).toISOString() } });
    deps.jobs.quotaFull = false;
    clock.now = at(14);
    expect((await sweepTranscriptions(deps)).started).toBe(1);
    expect(deps.jobs.started[0]).toMatchObject({ jobName: jobNameOf(orgId, id, 1), language: { identify: true } });
    expect(await getRecording(db, orgId, id)).toMatchObject({
      state: 'processing',
      transcription: { status: 'processing', watch_due_at: at(29).toISOString() },
    });
  });

  it('finishes a job whose completion event never came, and looks again later at one still running', async () => {
    const { orgId, userId, u } = await organization();
    const done = `rec_dsw_${u}_done`;
    const busy = `rec_dsw_${u}_busy`;
    const running = (id: string) => ({
      status: 'processing' as const,
      attempt: 1,
      job_language: 'en-US',
      queued_at: T0,
      started_at: T0,
      job_name: jobNameOf(orgId, id, 1),
      watch_due_at: at(15).toISOString(),
    });
    await putUploadedRecording(db, { orgId, userId, id: done, at: T0, transcription: running(done) });
    await putUploadedRecording(db, { orgId, userId, id: busy, at: T0, transcription: running(busy) });
    const clock = { now: at(16) };
    const deps = jobDepsAt(db, clock);
    deps.jobs.statuses.set(jobNameOf(orgId, done, 1), { status: 'COMPLETED' });
    deps.outputs.objects.set(outputKeyOf(orgId, done, 1), transcribeOutput(jobNameOf(orgId, done, 1), [['spk_0', 'hello', 0.2, 0.8]]));
    deps.jobs.statuses.set(jobNameOf(orgId, busy, 1), { status: 'IN_PROGRESS' });

    expect(await sweepTranscriptions(deps)).toMatchObject({ finished: 1, rechecked: 1 });
    expect(await getRecording(db, orgId, done)).toMatchObject({
      state: 'ready',
      transcription: { status: 'completed', billed_minutes: 1 },
    });
    expect(await getRecording(db, orgId, busy)).toMatchObject({
      state: 'processing',
      transcription: { status: 'processing', watch_due_at: at(31).toISOString() },
    });
    // The finished one's watch is gone; the running one's moved.
    const due = await dueTranscriptionWatches(db, at(40).toISOString(), 100);
    expect(due.filter((w) => w.org_id === orgId).map((w) => [w.recording_id, w.due_at])).toEqual([[busy, at(31).toISOString()]]);
  });

  it('fails a job still running past the bound with TRANSCRIPTION_TIMEOUT and drops its watch', async () => {
    const { orgId, userId, u } = await organization();
    const stuck = `rec_dsw_${u}_stuck`;
    await putUploadedRecording(db, {
      orgId,
      userId,
      id: stuck,
      at: T0,
      transcription: {
        status: 'processing',
        attempt: 1,
        job_language: 'en-US',
        queued_at: T0,
        started_at: T0,
        job_name: jobNameOf(orgId, stuck, 1),
        watch_due_at: at(8 * 60).toISOString(),
      },
    });
    const clock = { now: at(8 * 60 + 1) };
    const deps = jobDepsAt(db, clock);
    deps.jobs.statuses.set(jobNameOf(orgId, stuck, 1), { status: 'IN_PROGRESS' });

    expect((await sweepTranscriptions(deps)).timed_out).toBe(1);
    const failed = await getRecording(db, orgId, stuck);
    expect(failed).toMatchObject({ state: 'ready', transcription: { status: 'failed', error_code: 'TRANSCRIPTION_TIMEOUT' } });
    expect(failed?.transcript_error).toMatch(/^TRANSCRIPTION_TIMEOUT: /);
    expect((await dueTranscriptionWatches(db, at(9 * 60).toISOString(), 100)).filter((w) => w.org_id === orgId)).toEqual([]);
  });

  it('fails at once, as retryable, a running job Transcribe no longer knows (forgotten, or lost by a local restart)', async () => {
    const { orgId, userId, u } = await organization();
    const lost = `rec_dsw_${u}_lost`;
    await putUploadedRecording(db, {
      orgId,
      userId,
      id: lost,
      at: T0,
      transcription: {
        status: 'processing',
        attempt: 1,
        job_language: 'en-US',
        queued_at: T0,
        started_at: T0,
        job_name: jobNameOf(orgId, lost, 1),
        watch_due_at: at(15).toISOString(),
      },
    });
    // The in-memory Transcribe has no such job: get answers undefined, as the adapter does for NotFoundException.
    const deps = jobDepsAt(db, { now: at(16) });
    expect((await sweepTranscriptions(deps)).finished).toBe(1);
    const failed = await getRecording(db, orgId, lost);
    expect(failed).toMatchObject({ state: 'ready', transcription: { status: 'failed', error_code: 'TRANSCRIPTION_FAILED' } });
    expect(failed?.transcript_error).toMatch(/^TRANSCRIPTION_FAILED: The transcription job no longer exists/);
    expect((await dueTranscriptionWatches(db, at(60).toISOString(), 100)).filter((w) => w.org_id === orgId)).toEqual([]);
    // Not in flight any more: a new attempt may start (no TRANSCRIPTION_IN_PROGRESS).
    expect(isTranscriptionInFlight(failed!)).toBe(false);
  });
});
