import type { Caller } from '../../auth/policy';
import { ApiError, NotFoundError } from '../../core/errors';
import { RETENTION_POLICY_REASON, withChangeContext } from '../../storage/change-stamp';
import { getOrganization } from '../../storage/organizations';
import type { RetentionPolicy } from '../../storage/retention-policy-items';
import { buildRetentionIndex, expiredRecordingIds, listRetentionPolicies, setRetentionPolicy } from '../../storage/retention';
import { softDeleteRecording } from '../recordings/delete-recording';
import type { TrashDeps } from '../recordings/recording-trash';

/**
 * The organization's retention policy (docs/governance.md): recordings older than
 * `recordings_days`, counted from `recording_at` (else `created_at`), are moved to the trash by
 * the daily sweep, which the trash's own retention then purges. A policy changes nothing at
 * request time: a shorter one takes effect at the next sweep.
 */
export interface RetentionView {
  recordings_days: number | null;
  updated_at: string | null;
  updated_by: string | null;
}

const DAY_MS = 86_400_000;
/** Expired recordings moved at once within one organization's sweep. */
const MOVES_AT_ONCE = 4;

function viewOf(policy: RetentionPolicy | undefined): RetentionView {
  return {
    recordings_days: policy?.recordings_days ?? null,
    updated_at: policy?.updated_at ?? null,
    updated_by: policy?.updated_by ?? null,
  };
}

async function organizationOf(deps: TrashDeps, orgId: string) {
  const org = await getOrganization(deps.db, orgId, { consistent: true });
  if (!org) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
  return org;
}

export async function getRetention(deps: TrashDeps, orgId: string): Promise<RetentionView> {
  return viewOf((await organizationOf(deps, orgId)).retention);
}

export async function updateRetention(deps: TrashDeps, caller: Caller, recordingsDays: number | null): Promise<RetentionView> {
  const policy: RetentionPolicy = { recordings_days: recordingsDays, updated_at: deps.now().toISOString(), updated_by: caller.actor };
  await setRetentionPolicy(deps.db, caller.orgId, policy);
  return viewOf(policy);
}

/** What one organization's sweep did. */
export interface OrganizationSweep {
  org_id: string;
  recordings_days: number | null;
  /** Recordings whose retention day is before this UTC day had expired. */
  cutoff_day: string | null;
  /** Moved to the trash now. */
  moved: number;
  /** Expired but under a legal hold: kept. */
  held: number;
  /** Expired but changed or gone while the sweep ran (trashed, deleted or moved by someone else). */
  skipped: number;
  /** Recordings given their retention index keys first (an organization that predates the index). */
  indexed: number;
}

/** The UTC day before which a recording has been kept longer than `days` at `now`. */
export function cutoffDay(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

/** One organization's sweep: its expired recordings to the trash, held ones kept and counted. */
export async function sweepOrganization(deps: TrashDeps, orgId: string): Promise<OrganizationSweep> {
  const org = await organizationOf(deps, orgId);
  const days = org.retention?.recordings_days ?? null;
  const outcome: OrganizationSweep = { org_id: orgId, recordings_days: days, cutoff_day: null, moved: 0, held: 0, skipped: 0, indexed: 0 };
  if (days === null) return outcome;
  if (!org.retention_index_at) outcome.indexed = await buildRetentionIndex(deps.db, orgId, deps.now().toISOString());
  const cutoff = cutoffDay(deps.now(), days);
  outcome.cutoff_day = cutoff;
  const move = async (recordingId: string) => {
    try {
      await softDeleteRecording(deps, orgId, recordingId);
      outcome.moved++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'LEGAL_HOLD') outcome.held++;
      else if (error.code === 'RECORDING_NOT_FOUND' || error.code === 'CONCURRENT_UPDATE') outcome.skipped++;
      else throw error;
    }
  };
  await withChangeContext({ actor: null, correlationId: null, reason: RETENTION_POLICY_REASON }, async () => {
    for await (const ids of expiredRecordingIds(deps.db, orgId, cutoff)) {
      for (let i = 0; i < ids.length; i += MOVES_AT_ONCE) await Promise.all(ids.slice(i, i + MOVES_AT_ONCE).map(move));
    }
  });
  return outcome;
}

/** The daily sweep: every organization with a policy (one Query of the registry), or the one given. */
export async function sweepRetention(deps: TrashDeps, options: { orgId?: string } = {}): Promise<OrganizationSweep[]> {
  const orgIds = options.orgId ? [options.orgId] : (await listRetentionPolicies(deps.db)).map((policy) => policy.org_id);
  const sweeps: OrganizationSweep[] = [];
  for (const orgId of orgIds) sweeps.push(await sweepOrganization(deps, orgId));
  return sweeps;
}
