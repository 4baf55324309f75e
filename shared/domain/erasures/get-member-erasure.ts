import type { Erasure } from '../../schemas/erasures';
import type { TableContext } from '../../storage/dynamo';
import { getErasure } from '../../storage/erasures';
import { erasureNotFound, erasureView } from './erasure-views';

/** Get member erasure: one GetItem; an erasure of another member (or organization) is not found. */
export async function getMemberErasure(deps: { db: TableContext }, orgId: string, userId: string, erasureId: string): Promise<Erasure> {
  const erasure = await getErasure(deps.db, orgId, erasureId);
  if (!erasure || erasure.user_id !== userId) throw erasureNotFound(erasureId);
  return erasureView(erasure);
}
