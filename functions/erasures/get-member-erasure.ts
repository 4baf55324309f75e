import { getMemberErasure } from '../../shared/domain/erasures/get-member-erasure';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getMemberErasureRoute } from '../../shared/routes/erasures/get-member-erasure';
import { erasureDeps } from '../../shared/wiring/erasure-deps';

/** GET /api/v1/organization/{orgId}/users/{userId}/erasures/{erasureId} */
export const handler = apiHandler(getMemberErasureRoute, async ({ caller, path }) => {
  return envelope(await getMemberErasure(erasureDeps(), caller.orgId, path.userId, path.erasureId));
});
