import type { Actor } from '../../shared/schemas/event-catalog';
import { erasureItem } from '../../shared/storage/erasure-items';
import type { SampleSetup } from './sample-setup';

/**
 * The member erasure's part of the sample pipeline events (infra/sam/pipeline-events.ts): the
 * insert of the sample erasure (the managed member's, asked for by the owner), which gives
 * `user.erasure_requested`, the erasure job's cue. On the demo that erasure has completed, so
 * the job's sample event finds nothing left to do.
 */
type Item = Record<string, unknown>;

export function erasureStreamInsert(
  setup: SampleSetup,
  at: { changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { after: Item } {
  const { ids } = setup;
  const requester: Actor = { kind: 'user', id: ids.ownerId };
  const item = erasureItem({
    id: ids.erasureId,
    org_id: ids.orgId,
    user_id: ids.managedMemberId,
    status: 'queued',
    step: 'recordings',
    counts: {},
    requested_by: requester,
    created_at: at.changed,
    updated_at: at.changed,
    completed_at: null,
    error: null,
    in_progress: [],
  });
  return { after: { ...item, ...stampFor('erasure-requested', requester) } };
}
