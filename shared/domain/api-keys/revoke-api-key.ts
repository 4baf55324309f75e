import type { MemberCaller } from '../../auth/policy';
import type { ApiKey } from '../../schemas/api-keys';
import { ApiKeyDeps, apiKeyView, revokeKey, visibleKey } from './api-key-views';

/**
 * Revokes a key the caller may see (owners and admins: any; others: their own personal keys).
 * Revoking a revoked key changes nothing and answers it as it is.
 */
export async function revokeApiKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKey> {
  const now = deps.now();
  return apiKeyView(await revokeKey(deps.db, await visibleKey(deps, caller, keyId), now), now);
}
