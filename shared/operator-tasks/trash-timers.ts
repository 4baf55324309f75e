import type { TableContext } from '../storage/dynamo';
import { copyPurgeDateToRecording, readTrashAndTimers, setMissingTrashTimer } from '../storage/missing-trash-timers';
import { purgeAt } from '../domain/recordings/recording-trash';

/**
 * The least time between setting a timer late (seed, reindex) and its running out: a
 * recording trashed longer ago than the retention is shown in the trash with its purge date
 * for a day before it goes, so an admin can still restore it (docs/decisions.md, "Trash timers").
 */
export const LATE_TIMER_GRACE_MS = 86_400_000;

/**
 * When a recording that entered the trash at `deletedAt` without a timer is purged, its timer
 * being set at `now`: after the retention, as if the timer had been set then, but no sooner
 * than a grace period from now.
 */
export function latePurgeAt(deletedAt: string, now: Date, trashRetentionDays: number): string {
  return new Date(Math.max(Date.parse(purgeAt(deletedAt, trashRetentionDays)), now.getTime() + LATE_TIMER_GRACE_MS)).toISOString();
}

/** What setting an organization's missing trash timers did. */
export interface TrashTimersOutcome {
  /** Recordings in the trash. */
  recordings: number;
  /** Timers set for recordings that had none (each with its purge date on the recording). */
  timers_written: number;
  /** Timers already set, whose purge date was copied onto a recording trashed before recordings carried it. */
  purge_at_copied: number;
}

/**
 * Gives every recording of an organization's trash a trash timer for its trash period (see
 * latePurgeAt), and the purge date its timer holds. A timer already set is never moved, so a
 * second run writes nothing. Reads the trash and the timers (two Queries), then writes only
 * what is missing.
 */
export async function ensureTrashTimers(
  db: TableContext,
  orgId: string,
  now: Date,
  trashRetentionDays: number,
): Promise<TrashTimersOutcome> {
  const { trashed, timers } = await readTrashAndTimers(db, orgId);
  const timerOf = new Map(timers.map((timer) => [timer.recording_id, timer]));
  const outcome: TrashTimersOutcome = { recordings: trashed.length, timers_written: 0, purge_at_copied: 0 };
  for (const recording of trashed) {
    const timer = timerOf.get(recording.recording_id);
    if (timer?.deleted_at === recording.deleted_at) {
      if (recording.purge_at !== timer.purge_at && (await copyPurgeDateToRecording(db, timer))) outcome.purge_at_copied++;
      continue;
    }
    const missing = {
      org_id: orgId,
      recording_id: recording.recording_id,
      deleted_at: recording.deleted_at,
      purge_at: latePurgeAt(recording.deleted_at, now, trashRetentionDays),
    };
    if (await setMissingTrashTimer(db, missing)) outcome.timers_written++;
  }
  return outcome;
}
