import type { ErasureRecord } from '../../shared/storage/erasure-items';
import { putErasureOnce } from '../../shared/storage/erasures';
import type { TableContext } from '../../shared/storage/dynamo';

/**
 * The completed erasure Get member erasure's sample request reads (in the demo and in the
 * tests' sample data): of an earlier membership of the managed member, asked for by the owner.
 */
export async function seedCompletedErasure(
  db: TableContext,
  ids: { orgId: string; erasureId: string; userId: string; ownerId: string },
  now: Date,
): Promise<void> {
  const at = new Date(now.getTime() - 86_400_000).toISOString();
  const erasure: ErasureRecord = {
    id: ids.erasureId,
    org_id: ids.orgId,
    user_id: ids.userId,
    status: 'completed',
    step: null,
    counts: {
      recordings: 0,
      exports: 0,
      action_items_rewritten: 0,
      settings_items: 0,
      tags: 0,
      api_keys: 0,
      invites: 0,
      memberships: 1,
      user_items: 0,
    },
    requested_by: { kind: 'user', id: ids.ownerId },
    created_at: at,
    updated_at: at,
    completed_at: at,
    error: null,
    in_progress: [],
  };
  await putErasureOnce(db, erasure);
}
