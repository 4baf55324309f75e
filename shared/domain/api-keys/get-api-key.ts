import type { MemberCaller } from '../../auth/policy';
import type { ApiKey } from '../../schemas/api-keys';
import { ApiKeyDeps, apiKeyView, visibleKey } from './api-key-views';

/** One key the caller may see. */
export async function getApiKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKey> {
  return apiKeyView(await visibleKey(deps, caller, keyId), deps.now());
}
