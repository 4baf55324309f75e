import { ERASURE_COUNT_NAMES } from '../schemas/erasures';
import type { ItemChange } from '../storage/stream-items';
import type { Derived } from './derived-events';
import { writerOf } from './derived-events';

/**
 * The events of an erasure item (docs/governance.md, "Erasure"): its creation is
 * `user.erasure_requested`, the service's cue to run the job; its completion is `user.erased`,
 * attributed to whoever asked, with the erasure id and the counts. Ids and counts only.
 */
export function erasureEvents(change: Extract<ItemChange, { kind: 'erasure' }>): Derived[] {
  const { before, after } = change;
  if (!after) return [];
  const erasure = after.value;
  const resource = { type: 'user' as const, id: erasure.user_id };
  if (!before) {
    return [
      {
        type: 'user.erasure_requested',
        resource,
        data: { erasure_id: erasure.id, user_id: erasure.user_id },
        occurredAt: erasure.created_at,
        stamp: writerOf(before, after),
      },
    ];
  }
  if (before.value.status === 'completed' || erasure.status !== 'completed') return [];
  const counts = Object.fromEntries(ERASURE_COUNT_NAMES.map((name) => [name, erasure.counts[name] ?? 0]));
  return [
    {
      type: 'user.erased',
      resource,
      data: { erasure_id: erasure.id, user_id: erasure.user_id, counts },
      occurredAt: erasure.completed_at ?? erasure.updated_at,
      // The job completes it as the service; the event names who asked.
      stamp: { id: erasure.id, actor: erasure.requested_by, correlation_id: after.stamp?.correlation_id ?? null },
    },
  ];
}
