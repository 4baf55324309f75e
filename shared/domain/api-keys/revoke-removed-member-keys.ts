import type { DomainEvent } from '../../schemas/event-catalog';
import { listMemberApiKeys } from '../../storage/api-keys';
import { withChangeContext } from '../../storage/change-stamp';
import type { TableContext } from '../../storage/dynamo';
import { revokeKey } from './api-key-views';

/**
 * Revokes every personal key of a member who was removed (a `member.removed` event), as the
 * one who removed them, with the reason `member_removed`. Keys already revoked are skipped, so
 * a redelivered event changes nothing. Until it runs, the route policy already refuses the keys
 * of a member who is not active.
 */
export async function revokeRemovedMemberKeys(db: TableContext, event: DomainEvent, now: Date): Promise<number> {
  const userId = event.resource.id;
  const live = (await listMemberApiKeys(db, event.org_id, userId)).filter((key) => !key.revoked_at);
  await withChangeContext({ actor: event.actor, correlationId: event.correlation_id, reason: 'member_removed' }, () =>
    Promise.all(live.map((key) => revokeKey(db, key, now))),
  );
  return live.length;
}
