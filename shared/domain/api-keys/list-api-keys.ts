import type { MemberCaller } from '../../auth/policy';
import type { ListApiKeysQuery } from '../../schemas/api-keys';
import { listApiKeys as listStoredApiKeys } from '../../storage/api-keys';
import { ApiKeyDeps, managesAllKeys, apiKeyListCursor, apiKeyView } from './api-key-views';

/**
 * A page of keys, newest first: owners and admins see every key (or one member's personal
 * keys with `user_id`); everyone else their own personal keys, whatever `user_id` says.
 */
export async function listApiKeys(deps: ApiKeyDeps, caller: MemberCaller, query: ListApiKeysQuery) {
  const userId = managesAllKeys(caller) ? query.user_id : caller.userId;
  const list = { orgId: caller.orgId, userId };
  const after = query.cursor === undefined ? undefined : apiKeyListCursor.decode(query.cursor, list);
  const page = await listStoredApiKeys(deps.db, caller.orgId, { userId, limit: query.limit, after });
  const last = page.keys.at(-1);
  const now = deps.now();
  return {
    api_keys: page.keys.map((key) => apiKeyView(key, now)),
    pagination: {
      limit: query.limit,
      next_cursor: page.hasMore && last ? apiKeyListCursor.encode({ created_at: last.created_at, key_id: last.key_id }, list) : null,
    },
  };
}
