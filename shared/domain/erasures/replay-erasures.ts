import { newId } from '../../ids';
import { countsOf } from './erasure-views';
import type { ErasureCounts, ErasureStatus } from '../../schemas/erasures';
import type { ErasureLogEntry, ErasureRecord } from '../../storage/erasure-items';
import { getErasure, insertErasure, readErasureLog, runningErasureId } from '../../storage/erasures';
import type { TableContext } from '../../storage/dynamo';
import { WriteConflict } from '../../storage/transactions';
import { runErasureSteps } from './run-member-erasure';
import { FIRST_STEP } from './start-member-erasure';
import type { ErasureJobDeps } from './erasure-steps';

export interface ReplayedErasure {
  org_id: string;
  user_id: string;
  /** The erasure of the log that was replayed, and the erasure the replay ran as. */
  erasure_id: string;
  replay_id: string;
  /** `completed`, unless the deployment's own run of it was still at work when this one stopped. */
  status: ErasureStatus;
  /** What the replay found again in the restored table (all 0 when the restore held nothing of them). */
  counts: ErasureCounts;
}

/**
 * Runs again every erasure of the log completed at or after `since` (docs/governance.md,
 * "Backups"): after a table is restored from a backup, the people erased since the backup's
 * time are in it again. Each runs as a new erasure of the same member, attributed to whoever
 * asked for the original, with the same steps (so with no confirmation and no refusal: the
 * person asked to be forgotten before the restore). `log` is the table whose log is read: the
 * table in use before the restore, whose log holds the erasures the backup predates.
 */
export async function replayErasures(
  deps: ErasureJobDeps,
  options: { since?: string; log?: TableContext } = {},
): Promise<ReplayedErasure[]> {
  const entries = await readErasureLog(options.log ?? deps.db, options.since);
  const replayed: ReplayedErasure[] = [];
  for (const entry of entries) replayed.push(await replayOne(deps, entry));
  return replayed;
}

async function replayOne(deps: ErasureJobDeps, entry: ErasureLogEntry): Promise<ReplayedErasure> {
  const now = deps.now().toISOString();
  const erasure: ErasureRecord = {
    id: newId('era'),
    org_id: entry.org_id,
    user_id: entry.user_id,
    status: 'queued',
    step: FIRST_STEP,
    counts: {},
    requested_by: entry.requested_by,
    created_at: now,
    updated_at: now,
    completed_at: null,
    error: null,
    in_progress: [],
  };
  try {
    await insertErasure(deps.db, erasure);
  } catch (error) {
    if (!(error instanceof WriteConflict && error.failedAt('guard'))) throw error;
    // An erasure of this member runs already (a replay run twice at once): that one does the work.
    const running = await runningErasureId(deps.db, entry.org_id, entry.user_id);
    return {
      org_id: entry.org_id,
      user_id: entry.user_id,
      erasure_id: entry.erasure_id,
      replay_id: running ?? '',
      status: 'running',
      counts: countsOf(erasure),
    };
  }
  await runErasureSteps(deps, erasure);
  // Its event has the deployment's erasure job run it too: whichever run counted a step, the erasure holds it.
  const done = (await getErasure(deps.db, erasure.org_id, erasure.id, { consistent: true })) ?? erasure;
  return {
    org_id: entry.org_id,
    user_id: entry.user_id,
    erasure_id: entry.erasure_id,
    replay_id: erasure.id,
    status: done.status,
    counts: countsOf(done),
  };
}
