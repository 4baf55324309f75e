import { roleAtLeast, type Role } from '../../core/access';
import type { MemberCaller } from '../../auth/policy';
import { scopesAllowedFor } from '../../auth/scope-ceilings';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import { keysetCursor } from '../../core/keyset-cursor';
import { ID_PATTERN } from '../../schemas/common';
import type { ApiKey } from '../../schemas/api-keys';
import { type ApiKeyRecord } from '../../storage/api-key-items';
import { getApiKey, revokeApiKeySecrets, type ApiKeyPosition } from '../../storage/api-keys';
import type { TableContext } from '../../storage/dynamo';
import { retryOnWriteConflict } from '../../storage/write-retries';

/** What the key routes need: the table and the time. */
export interface ApiKeyDeps {
  db: TableContext;
  now: () => Date;
}

/** The API key as the API shows it; its status is derived at `now`. */
export function apiKeyView(key: ApiKeyRecord, now: Date): ApiKey {
  const status = key.revoked_at ? 'revoked' : key.expires_at && Date.parse(key.expires_at) <= now.getTime() ? 'expired' : 'active';
  return {
    id: key.key_id,
    kind: key.kind,
    name: key.name,
    prefix: key.prefix,
    scopes: [...key.scopes],
    user_id: key.user_id,
    status,
    created_at: key.created_at,
    created_by: key.created_by,
    last_used_at: key.last_used_at,
    expires_at: key.expires_at,
    revoked_at: key.revoked_at,
    rotated_at: key.rotated_at,
    rate_limit: key.rate_limit && { ...key.rate_limit },
  };
}

/** Owners and admins manage every key of the organization; everyone else only their own personal keys. */
export const managesAllKeys = (caller: MemberCaller) => roleAtLeast(caller.role, 'admin');

/** Whether the caller may see (and so read or revoke) the key. */
const canSee = (caller: MemberCaller, key: ApiKeyRecord) => managesAllKeys(caller) || key.user_id === caller.userId;

/** The key, if it exists in the organization and the caller may see it; otherwise the one 404 that never says which. */
export async function visibleKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKeyRecord> {
  const key = await getApiKey(deps.db, caller.orgId, keyId);
  if (!key || !canSee(caller, key)) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist in this organization.`);
  return key;
}

/** A key may carry only scopes its ceiling role has: 403 naming the ones it may not. */
export function requireScopesWithin(kind: ApiKey['kind'], role: Role, scopes: readonly string[]): void {
  const allowed: readonly string[] = scopesAllowedFor(kind, role);
  const beyond = scopes.filter((scope) => !allowed.includes(scope));
  if (beyond.length === 0) return;
  const whose = kind === 'org' ? 'your role' : 'your role for a personal key';
  throw new ForbiddenError(
    'SCOPES_EXCEED_ROLE',
    `${beyond.join(', ')} ${beyond.length > 1 ? 'are' : 'is'} beyond ${whose} (${role}); allowed: ${allowed.join(', ') || 'none'}.`,
  );
}

/** List API keys' cursor: the last key of the page, bound to the organization and the member whose keys are listed (if one). */
/** A key's creation time: an ISO 8601 timestamp (the service writes new Date().toISOString()). */
const CREATED_AT = /^\d{4}-\d\d-\d\dT[0-9:.+Z-]{1,40}$/;

export const apiKeyListCursor = keysetCursor<ApiKeyPosition, { orgId: string; userId?: string }>({
  bindsTo: ({ orgId, userId }) => ['api-keys', orgId, userId ?? null],
  write: (position) => ({ c: position.created_at, k: position.key_id }),
  // Only what a key can hold: an empty or odd value would make a start key DynamoDB refuses.
  read: ({ c, k }) =>
    typeof c === 'string' && CREATED_AT.test(c) && typeof k === 'string' && ID_PATTERN.test(k) ? { created_at: c, key_id: k } : undefined,
  // Cursors issued before the shared cursor carried the organization and member unhashed.
  formerFingerprints: ({ orgId, userId }) => [`${orgId}#${userId ?? '*'}`],
});

/**
 * Revokes a key: the managed key and its current secret are marked, a secret in its grace
 * period stops at once. A concurrent rotation is retried against the fresh key.
 */
export async function revokeKey(db: TableContext, key: ApiKeyRecord, now: Date): Promise<ApiKeyRecord> {
  return retryOnWriteConflict(
    async (attempt) => {
      const current = attempt === 1 ? key : await getApiKey(db, key.org_id, key.key_id);
      if (!current) throw new NotFoundError('KEY_NOT_FOUND', `API key ${key.key_id} does not exist.`);
      if (current.revoked_at) return current;
      const next: ApiKeyRecord = { ...current, revoked_at: now.toISOString(), previous_secret: null };
      await revokeApiKeySecrets(db, current, next);
      return next;
    },
    {
      attempts: 5,
      exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The key changed too often while it was being revoked; try again.'),
    },
  );
}
