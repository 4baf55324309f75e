import { startMemberErasure } from '../../shared/domain/erasures/start-member-erasure';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { eraseMemberRoute } from '../../shared/routes/erasures/erase-member';
import { erasureDeps } from '../../shared/wiring/erasure-deps';

/** POST /api/v1/organization/{orgId}/users/{userId}/erasure: queue a member's erasure, or answer the one running. */
export const handler = idempotentApiHandler(eraseMemberRoute, async ({ caller, path, body }) => {
  return envelope(await startMemberErasure(erasureDeps(), caller, path.userId, body.confirm), undefined, 202);
});
