import { NotFoundError } from '../core/errors';
import type { TableContext } from '../storage/dynamo';
import { rebuildMemberSearchIndex } from '../storage/member-search';
import { getOrganization } from '../storage/organizations';
import { rebuildRecordingDayCounts } from '../storage/recording-day-counts';
import { ensureTrashTimers, type TrashTimersOutcome } from './trash-timers';
import { rebuildTemplateOrderKeys } from '../storage/templates';

/** What a rebuild did to each of an organization's derived indexes (left alone when complete and not forced), and to its trash timers. */
export interface DerivedIndexesOutcome {
  org_id: string;
  member_search: { entries: number; shards: number } | 'complete';
  recording_day_counts: { recordings: number; items: number } | 'complete';
  trash_timers: TrashTimersOutcome;
  templates: { templates: number; rewritten: number } | 'complete';
}

/**
 * Builds an organization's derived indexes (the member search index, the recording day
 * counts, the templates' order keys) from its items, for an organization created before
 * they existed. An organization created since keeps them complete on every write, and is
 * left alone unless `force`. It reads every member, recording index entry and template of
 * the organization: run it when the organization is quiet, as writes racing it may be
 * missed (docs/data-model.md).
 * Every time, forced or not, recordings in the trash without a trash timer (trashed before
 * the event pipeline, or loaded in the trash by an older seed) get one (ensureTrashTimers).
 */
export async function rebuildDerivedIndexes(
  db: TableContext,
  orgId: string,
  now: Date,
  { force = false, trashRetentionDays }: { force?: boolean; trashRetentionDays: number },
): Promise<DerivedIndexesOutcome> {
  const org = await getOrganization(db, orgId);
  if (!org) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
  const at = now.toISOString();
  const [memberSearch, dayCounts, templates, trashTimers] = await Promise.all([
    force || !org.member_search_index_at ? rebuildMemberSearchIndex(db, orgId, at) : ('complete' as const),
    force || !org.recording_days_index_at ? rebuildRecordingDayCounts(db, orgId, at) : ('complete' as const),
    force || !org.templates_index_at ? rebuildTemplateOrderKeys(db, orgId, at) : ('complete' as const),
    ensureTrashTimers(db, orgId, now, trashRetentionDays),
  ]);
  return { org_id: orgId, member_search: memberSearch, recording_day_counts: dayCounts, templates, trash_timers: trashTimers };
}
