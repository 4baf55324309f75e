import { ERASURE_COUNT_NAMES, type Erasure, type ErasureCounts } from '../../schemas/erasures';
import type { ErasureRecord } from '../../storage/erasure-items';
import { NotFoundError } from '../../core/errors';

/** Every count, 0 for a step that has not counted yet. */
export function countsOf(erasure: Pick<ErasureRecord, 'counts'>): ErasureCounts {
  return Object.fromEntries(ERASURE_COUNT_NAMES.map((name) => [name, erasure.counts[name] ?? 0])) as ErasureCounts;
}

/** An erasure as the API shows it: ids, state and counts, nothing about the person. */
export function erasureView(erasure: ErasureRecord): Erasure {
  return {
    id: erasure.id,
    user_id: erasure.user_id,
    status: erasure.status,
    step: erasure.status === 'completed' ? null : erasure.step,
    counts: countsOf(erasure),
    requested_by: erasure.requested_by,
    created_at: erasure.created_at,
    updated_at: erasure.updated_at,
    completed_at: erasure.completed_at,
  };
}

export const erasureNotFound = (erasureId: string) =>
  new NotFoundError('ERASURE_NOT_FOUND', `Erasure ${erasureId} does not exist for this member.`);
