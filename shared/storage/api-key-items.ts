import { isScope, type Scope } from '../core/access';
import { readStoredRateLimit } from './stored-rate-limits';
import { API_KEY_KINDS, type ApiKeyKind } from '../schemas/api-keys';
import type { RateLimit } from '../core/rate-limits';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';

/* API keys as items: types, item builders and mappers, with no DynamoDB client (the event processor maps them and bundles none). */

/**
 * A key as its organization manages it, under the organization's partition. It never holds a
 * secret: only the SHA-256 of the current one (and of the previous one while it still works),
 * so a rotation or a revocation can find the secret items to change.
 */
export interface ApiKeyRecord {
  key_id: string;
  org_id: string;
  kind: ApiKeyKind;
  name: string;
  /** The first characters of the current secret, enough to recognise it. */
  prefix: string;
  scopes: Scope[];
  /** The member a personal key acts as; null for an organization key. */
  user_id: string | null;
  created_at: string;
  /** The user who created it; null for keys the operator created (CLI, fixtures). */
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  rotated_at: string | null;
  secret_hash: string;
  /** The secret a rotation replaced, while its grace period runs. */
  previous_secret: { hash: string; retires_at: string } | null;
  /** The key's own rate limit, besides its organization's (docs/rate-limits.md); null: only the organization's. */
  rate_limit: RateLimit | null;
}

/**
 * One secret of a key, found by its hash: what the authorizer reads, in one GetItem. It
 * repeats what the authorizer needs (organization, user, scopes, expiry) so no second read is
 * needed; a revocation or rotation changes every secret item of the key in its transaction.
 */
export interface ApiKeySecretRecord {
  key_id: string;
  key_hash: string;
  org_id: string;
  /** Present on personal keys (pk_user_...), absent on organization keys. */
  user_id?: string;
  scopes: Scope[];
  created_at: string;
  revoked_at?: string;
  expires_at?: string;
  /** Set on a secret a rotation replaced: it works until then. */
  retires_at?: string;
  /** The key's own rate limit, repeated here so the authorizer passes it on (principal.rateLimit). */
  rate_limit?: RateLimit;
}

/** What a new key is made of; the rest starts empty (never used, rotated or revoked; no grace-period secret). */
export type NewApiKey = Pick<
  ApiKeyRecord,
  'key_id' | 'org_id' | 'kind' | 'name' | 'prefix' | 'scopes' | 'user_id' | 'created_at' | 'created_by' | 'secret_hash'
> &
  Partial<Pick<ApiKeyRecord, 'expires_at' | 'rate_limit'>>;

/** A key as it is created. */
export function newApiKeyRecord(key: NewApiKey): ApiKeyRecord {
  return { expires_at: null, rate_limit: null, ...key, last_used_at: null, revoked_at: null, rotated_at: null, previous_secret: null };
}

/** The sort key of a managed key, for the stream's classification (shared/storage/stream-items.ts). */
export const API_KEY_SORT_KEY = /^APIKEY#[^#]+$/;

/** The managed key's item: indexed newest first in its organization and, when personal, under its member. */
export function apiKeyItem(key: ApiKeyRecord): Record<string, unknown> {
  return {
    ...keys.apiKey(key.org_id, key.key_id),
    ...keys.apiKeysIndex(key.org_id, key.created_at, key.key_id),
    ...(key.user_id ? keys.memberApiKeysIndex(key.org_id, key.user_id, key.created_at, key.key_id) : {}),
    // Nulls are left out: absent reads as null, and conditions can then say attribute_not_exists(revoked_at).
    ...Object.fromEntries(Object.entries(key).filter(([, value]) => value !== null)),
    ...changeStamp(),
  };
}

/**
 * Reads a managed key. A scope this code no longer knows grants nothing, so it is dropped
 * rather than refused.
 */
export function apiKeyFromItem(item: Record<string, unknown>): ApiKeyRecord {
  const field = itemFields(item, 'API key');
  const previous = field.map('previous_secret');
  return {
    key_id: field.string('key_id'),
    org_id: field.string('org_id'),
    kind: field.oneOf('kind', API_KEY_KINDS),
    name: field.string('name'),
    prefix: field.string('prefix'),
    scopes: field.stringList('scopes').filter(isScope),
    user_id: field.nullableString('user_id'),
    created_at: field.string('created_at'),
    created_by: field.nullableString('created_by'),
    last_used_at: field.nullableString('last_used_at'),
    expires_at: field.nullableString('expires_at'),
    revoked_at: field.nullableString('revoked_at'),
    rotated_at: field.nullableString('rotated_at'),
    secret_hash: field.string('secret_hash'),
    previous_secret:
      typeof previous.hash === 'string' && typeof previous.retires_at === 'string'
        ? { hash: previous.hash, retires_at: previous.retires_at }
        : null,
    rate_limit: rateLimitFromItem(item) ?? null,
  };
}

/** A key's own rate limit as stored (absent on keys without one); an Error when it is not a valid limit. */
function rateLimitFromItem(item: Record<string, unknown>): RateLimit | undefined {
  if (item.rate_limit === undefined || item.rate_limit === null) return undefined;
  const limit = readStoredRateLimit(item.rate_limit);
  if (!limit) throw new Error(`API key ${String(item.key_id)}: its stored rate_limit is not a valid limit`);
  return limit;
}

/**
 * A secret's item. The current secret is indexed by the key's id; a replaced one is not, and
 * expires from the table a day after its grace period (TTL).
 */
export function apiKeySecretItem(secret: ApiKeySecretRecord): Record<string, unknown> {
  const retiring = secret.retires_at !== undefined;
  return {
    ...keys.apiKeySecret(secret.key_hash),
    ...(retiring ? { [TABLE.ttlAttribute]: Math.ceil(Date.parse(secret.retires_at!) / 1000) + 86_400 } : keys.apiKeyIdIndex(secret.key_id)),
    ...Object.fromEntries(Object.entries(secret).filter(([, value]) => value !== undefined)),
  };
}

/** Reads a stored secret. Organization keys have no `user_id`, live keys no `revoked_at`. */
export function apiKeySecretFromItem(item: Record<string, unknown>): ApiKeySecretRecord {
  const field = itemFields(item, 'API key secret');
  return {
    key_id: field.string('key_id'),
    key_hash: field.string('key_hash'),
    org_id: field.string('org_id'),
    user_id: field.optionalString('user_id'),
    scopes: field.stringList('scopes').filter(isScope),
    created_at: field.string('created_at'),
    revoked_at: field.optionalString('revoked_at'),
    expires_at: field.optionalString('expires_at'),
    retires_at: field.optionalString('retires_at'),
    rate_limit: rateLimitFromItem(item),
  };
}

/** The secret item of a managed key's current (or given) secret hash. */
export function secretRecordOf(key: ApiKeyRecord, keyHash: string = key.secret_hash): ApiKeySecretRecord {
  return {
    key_id: key.key_id,
    key_hash: keyHash,
    org_id: key.org_id,
    ...(key.user_id ? { user_id: key.user_id } : {}),
    scopes: key.scopes,
    created_at: key.created_at,
    ...(key.expires_at ? { expires_at: key.expires_at } : {}),
    ...(key.revoked_at ? { revoked_at: key.revoked_at } : {}),
    ...(key.rate_limit ? { rate_limit: key.rate_limit } : {}),
  };
}
