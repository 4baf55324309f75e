import type { Recording, RecordingTranscription } from '../../storage/recording-items';
import { getRecording } from '../../storage/recordings';
import {
  commitTranscriptionTransition,
  deleteTranscriptChunks,
  dueTranscriptionWatches,
  removeTranscriptionWatch,
  type TranscriptionWatch,
} from '../../storage/transcriptions';
import { isWriteConflict } from '../../storage/write-retries';
import { finishTranscriptionJob } from './finish-transcription-job';
import { startQueuedTranscription } from './start-transcription-job';
import type { TranscriptionJobDeps } from './transcription-deps';
import { failedRecording, outputKeyOf, recheckedRecording, RUNNING_RECHECK_MS, STUCK_AFTER_MS } from './transcription-changes';

/** What the sweeper did with one due watch item. */
export type SweepAction = 'started' | 'throttled' | 'finished' | 'rechecked' | 'timed_out' | 'removed' | 'conflict' | 'skipped';

/** How many due watch items one sweep looks at (oldest first); the rest wait for the next sweep. */
export const SWEEP_BATCH = 100;

/**
 * The sweeper (on a schedule, docs/transcription.md): Transcribe's job state change event is
 * delivered on a best-effort basis, and a start may have been refused (Transcribe's concurrent
 * job quota), so every queued or running attempt has a watch item due when it should have
 * moved on. For each due item, oldest first: a queued attempt is started; a running job is
 * asked for: finished when it ended, failed with TRANSCRIPTION_TIMEOUT when it has run for
 * longer than STUCK_AFTER_MS, else looked at again later; the item of a recording deleted for
 * good goes, with any output or chunk of its attempt. Reads what is due, never a Scan.
 */
export async function sweepTranscriptions(deps: TranscriptionJobDeps, limit = SWEEP_BATCH): Promise<Record<SweepAction, number>> {
  const summary: Record<SweepAction, number> = {
    started: 0,
    throttled: 0,
    finished: 0,
    rechecked: 0,
    timed_out: 0,
    removed: 0,
    conflict: 0,
    skipped: 0,
  };
  const due = await dueTranscriptionWatches(deps.db, deps.now().toISOString(), limit);
  for (const watch of due) {
    try {
      summary[await sweepOne(deps, watch)] += 1;
    } catch (error) {
      if (!isWriteConflict(error)) throw error;
      summary.conflict += 1;
    }
  }
  return summary;
}

async function sweepOne(deps: TranscriptionJobDeps, watch: TranscriptionWatch): Promise<SweepAction> {
  const recording = await getRecording(deps.db, watch.org_id, watch.recording_id, { consistent: true });
  if (!recording) {
    await deps.outputs.remove(outputKeyOf(watch.org_id, watch.recording_id, watch.attempt));
    await deleteTranscriptChunks(deps.db, watch.org_id, watch.recording_id, 'all');
    await removeTranscriptionWatch(deps.db, watch);
    return 'removed';
  }
  const run = recording.transcription;
  // A watch item no transition points to any more (never left behind by a commit; tolerated).
  if (!run || run.watch_due_at !== watch.due_at || run.attempt !== watch.attempt) {
    await removeTranscriptionWatch(deps.db, watch);
    return 'removed';
  }
  if (run.status === 'queued') {
    const started = await startQueuedTranscription(deps, watch.org_id, watch.recording_id, run.attempt);
    return started === 'throttled' || started === 'started' ? started : 'skipped';
  }
  if (run.status !== 'processing' || !run.job_name) return 'skipped';
  const job = await deps.jobs.get(run.job_name);
  if (!job || job.status === 'COMPLETED' || job.status === 'FAILED') {
    await finishTranscriptionJob(deps, run.job_name);
    return 'finished';
  }
  const running = recording as Recording & { transcription: RecordingTranscription };
  const now = deps.now();
  if (now.getTime() - Date.parse(run.started_at ?? run.queued_at) > STUCK_AFTER_MS) {
    const reason = `the job ran for more than ${STUCK_AFTER_MS / 3_600_000} hours without finishing.`;
    await commitTranscriptionTransition(deps.db, {
      before: running,
      after: failedRecording(running, now, { code: 'TRANSCRIPTION_TIMEOUT', reason }),
      watch: { remove: run.watch_due_at },
    });
    return 'timed_out';
  }
  const after = recheckedRecording(running, now, RUNNING_RECHECK_MS);
  await commitTranscriptionTransition(deps.db, {
    before: running,
    after,
    watch: { remove: run.watch_due_at, set: after.transcription?.watch_due_at },
  });
  return 'rechecked';
}
