import { roleAtLeast, type Role } from '../../core/access';
import { apiKeyIdFromHash, generateApiKey, hashApiKey, keyPrefixOf } from '../../auth/api-key-secrets';
import type { MemberCaller } from '../../auth/policy';
import { scopesAllowedFor } from '../../auth/scope-ceilings';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors';
import { keysetCursor } from '../../core/keyset-cursor';
import { ID_PATTERN } from '../../schemas/common';
import type { ApiKey, CreateApiKeyBody, ListApiKeysQuery, RotateApiKeyBody } from '../../schemas/api-keys';
import { newApiKeyRecord, type ApiKeyRecord } from '../../storage/api-key-items';
import {
  getApiKey,
  insertApiKey,
  listMemberApiKeys,
  listApiKeys as listStoredApiKeys,
  revokeApiKeySecrets,
  rotateApiKeySecret,
  type ApiKeyPosition,
} from '../../storage/api-keys';
import type { DomainEvent } from '../../schemas/event-catalog';
import { withChangeContext } from '../../storage/change-stamp';
import type { TableContext } from '../../storage/dynamo';
import { WriteConflict } from '../../storage/transactions';
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
const managesAllKeys = (caller: MemberCaller) => roleAtLeast(caller.role, 'admin');

/** Whether the caller may see (and so read or revoke) the key. */
const canSee = (caller: MemberCaller, key: ApiKeyRecord) => managesAllKeys(caller) || key.user_id === caller.userId;

/** The key, if it exists in the organization and the caller may see it; otherwise the one 404 that never says which. */
async function visibleKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKeyRecord> {
  const key = await getApiKey(deps.db, caller.orgId, keyId);
  if (!key || !canSee(caller, key)) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist in this organization.`);
  return key;
}

/**
 * Creates an organization key (owners and admins) or the caller's own personal key, with
 * scopes no wider than the ceiling's role (the creator's for an organization key, the
 * member's own for a personal key). The answer holds the secret: the only time it exists
 * outside the client; only its SHA-256 is stored.
 */
export async function createApiKey(deps: ApiKeyDeps, caller: MemberCaller, body: CreateApiKeyBody): Promise<ApiKey & { secret: string }> {
  const now = deps.now();
  if (body.kind === 'org' && !managesAllKeys(caller)) {
    throw new ForbiddenError('INSUFFICIENT_ROLE', 'Only owners and admins create organization keys; create a personal key instead.');
  }
  requireScopesWithin(body.kind, caller.role, body.scopes);
  if (body.expires_at && Date.parse(body.expires_at) <= now.getTime()) {
    throw ValidationError.field('expires_at', 'invalid_value', 'must be in the future');
  }
  const secret = generateApiKey(body.kind === 'org' ? 'org_key' : 'user_key');
  const secretHash = hashApiKey(secret);
  const key = newApiKeyRecord({
    key_id: apiKeyIdFromHash(secretHash),
    org_id: caller.orgId,
    kind: body.kind,
    name: body.name,
    prefix: keyPrefixOf(secret),
    scopes: body.scopes,
    user_id: body.kind === 'personal' ? caller.userId : null,
    created_at: now.toISOString(),
    created_by: caller.userId,
    expires_at: body.expires_at ? new Date(body.expires_at).toISOString() : null,
    secret_hash: secretHash,
    rate_limit: body.rate_limit ?? null,
  });
  await insertApiKey(deps.db, key);
  return { ...apiKeyView(key, now), secret };
}

/** A key may carry only scopes its ceiling role has: 403 naming the ones it may not. */
function requireScopesWithin(kind: ApiKey['kind'], role: Role, scopes: readonly string[]): void {
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

/** One key the caller may see. */
export async function getApiKeyView(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKey> {
  return apiKeyView(await visibleKey(deps, caller, keyId), deps.now());
}

/**
 * Revokes a key the caller may see (owners and admins: any; others: their own personal keys).
 * Revoking a revoked key changes nothing and answers it as it is.
 */
export async function revokeApiKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string): Promise<ApiKey> {
  const now = deps.now();
  return apiKeyView(await revokeKey(deps.db, await visibleKey(deps, caller, keyId), now), now);
}

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

/**
 * Issues a new secret under the same key id. The replaced secret keeps working for the grace
 * period asked for (0 to 24 hours); a secret an earlier rotation left working stops now.
 * Organization keys: owners and admins. Personal keys: only their own member, since the answer
 * holds a secret that acts as that member.
 */
export async function rotateApiKey(deps: ApiKeyDeps, caller: MemberCaller, keyId: string, body: RotateApiKeyBody) {
  const key = await visibleKey(deps, caller, keyId);
  if (key.kind === 'personal' && key.user_id !== caller.userId) {
    throw new ForbiddenError(
      'NOT_KEY_OWNER',
      'Only its member rotates a personal key: the new secret would act as them. Revoke it instead.',
    );
  }
  if (key.revoked_at) throw new ConflictError('KEY_REVOKED', `API key ${keyId} is revoked; create a new key.`);
  const now = deps.now();
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime())
    throw new ConflictError('KEY_EXPIRED', `API key ${keyId} has expired; create a new key.`);
  const secret = generateApiKey(key.kind === 'org' ? 'org_key' : 'user_key');
  const graceSeconds = body.grace_period_seconds;
  const retiresAt = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  const next: ApiKeyRecord = {
    ...key,
    prefix: keyPrefixOf(secret),
    secret_hash: hashApiKey(secret),
    rotated_at: now.toISOString(),
    previous_secret: graceSeconds > 0 ? { hash: key.secret_hash, retires_at: retiresAt } : null,
  };
  try {
    await rotateApiKeySecret(deps.db, key, next);
  } catch (error) {
    // The key was revoked or rotated meanwhile (a failed condition), or another transaction held it.
    if (error instanceof WriteConflict)
      throw new ConflictError('CONCURRENT_UPDATE', 'The key was revoked or rotated meanwhile; read it again.');
    throw error;
  }
  return { ...apiKeyView(next, now), secret, previous_secret_expires_at: retiresAt };
}

/**
 * Revokes every personal key of a member who was removed (a `member.removed` event), as the
 * one who removed them, with the reason `member_removed`. Keys already revoked are skipped, so
 * a redelivered event changes nothing. Until it runs, the route policy already refuses the keys
 * of a member who is not active.
 */
export async function revokeKeysOfRemovedMember(db: TableContext, event: DomainEvent, now: Date): Promise<number> {
  const userId = event.resource.id;
  const live = (await listMemberApiKeys(db, event.org_id, userId)).filter((key) => !key.revoked_at);
  await withChangeContext({ actor: event.actor, correlationId: event.correlation_id, reason: 'member_removed' }, () =>
    Promise.all(live.map((key) => revokeKey(db, key, now))),
  );
  return live.length;
}
