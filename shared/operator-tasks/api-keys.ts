import type { Scope } from '../core/access';
import type { RateLimit } from '../core/rate-limits';
import { apiKeyIdFromHash, apiKeyKind, generateApiKey, hashApiKey, keyPrefixOf, USER_KEY_PREFIX } from '../auth/api-key-secrets';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors';
import { newApiKeyRecord, type ApiKeyRecord, type ApiKeySecretRecord } from '../storage/api-key-items';
import {
  adoptApiKey,
  findApiKeySecretById,
  getApiKey,
  getApiKeySecret,
  insertApiKey,
  managedApiKeyIds,
  markApiKeySecretRevoked,
  scanCurrentApiKeySecrets,
} from '../storage/api-keys';
import type { TableContext } from '../storage/dynamo';
import { getMembership } from '../storage/memberships';
import { getOrganization } from '../storage/organizations';
import { isConditionFailure, WriteConflict } from '../storage/transactions';
import { revokeKey } from '../domain/api-keys/api-key-views';
import type { EnsureOutcome } from './directory';

/* The operator's keys (CLI and fixtures): not bound by a creator's role, since the operator has the AWS account. */

/** What the operator's keys are called in lists unless named. */
const OPERATOR_KEY_NAME = 'Operator key';

export interface ApiKeyInput {
  orgId: string;
  /** Given: a personal key of this member (pk_user_...). Absent: an organization key. */
  userId?: string;
  scopes: Scope[];
  /** A given plaintext (fixtures); otherwise a new random key is generated. */
  key?: string;
  /** Shown in key lists; defaults to say where the key came from. */
  name?: string;
  /** A given id (fixtures, the local demo's keys); otherwise derived from the key's hash. */
  keyId?: string;
  /** The key's own rate limit, besides its organization's (docs/rate-limits.md). */
  rateLimit?: RateLimit;
}

/**
 * Issues an API key and returns its plaintext: the only time it is ever visible.
 * Only the key's SHA-256 hash is stored.
 */
export async function createApiKey(
  db: TableContext,
  input: ApiKeyInput,
  now: Date,
): Promise<{ key_id: string; key: string; record: ApiKeyRecord }> {
  const { key, record } = await prepareKey(db, input, now);
  try {
    await insertApiKey(db, record);
  } catch (error) {
    if (error instanceof WriteConflict && error.failedAt('secret'))
      throw new ConflictError('KEY_EXISTS', 'This API key is already registered.');
    if (error instanceof WriteConflict && error.failedAt('key'))
      throw new ConflictError('KEY_EXISTS', `Another API key has the id ${record.key_id}.`);
    throw error;
  }
  return { key_id: record.key_id, key, record };
}

/**
 * Stores a fixture key unless it is already stored as given. A fixture key stored before keys
 * were managed through the API gets its managed item now, so it appears in key lists.
 */
export async function ensureApiKey(db: TableContext, input: ApiKeyInput & { key: string }, now: Date): Promise<EnsureOutcome> {
  const existing = await getApiKeySecret(db, hashApiKey(input.key));
  if (!existing) return (await createApiKey(db, input, now), 'created');
  const sameScopes = [...existing.scopes].sort().join() === [...input.scopes].sort().join();
  const sameId = input.keyId === undefined || input.keyId === existing.key_id;
  if (existing.org_id !== input.orgId || existing.user_id !== input.userId || !sameScopes || !sameId) {
    throw new ConflictError('KEY_EXISTS', `API key ${existing.key_id} is already registered with other settings.`);
  }
  if (await getApiKey(db, existing.org_id, existing.key_id)) return 'unchanged';
  const { record } = await prepareKey(db, input, new Date(existing.created_at));
  try {
    await adoptApiKey(db, { ...record, key_id: existing.key_id, revoked_at: existing.revoked_at ?? null });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return 'updated';
}

/** What `key adopt` did: the keys it adopted, and how many current secrets it found with their managed key already. */
export interface ApiKeyAdoption {
  adopted: { key_id: string; org_id: string }[];
  already_managed: number;
}

/**
 * Adopts every key stored before keys were managed through the API (by the CLI's
 * `key create`, or a fixture loaded then): only its secret item exists, which the authorizer
 * accepts but List API keys cannot see. Each gets its managed item as the key is (scopes,
 * creation time, revocation, own rate limit; an operator key, with only its kind's prefix
 * since its secret is not stored), unstamped: its stream record is no `api_key.created` event,
 * as nobody created it now. Nothing indexes those secrets by organization, so they are found
 * by a Scan of the key-id index: an operator's step, once after upgrading, never a request's.
 * Running it again adopts nothing new.
 */
export async function adoptUnmanagedApiKeys(db: TableContext, filter: { orgId?: string }): Promise<ApiKeyAdoption> {
  if (filter.orgId && !(await getOrganization(db, filter.orgId)))
    throw new NotFoundError('ORG_NOT_FOUND', `Organization ${filter.orgId} does not exist.`);
  const outcome: ApiKeyAdoption = { adopted: [], already_managed: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await scanCurrentApiKeySecrets(db, { orgId: filter.orgId, startKey });
    const managed = await managedApiKeyIds(db, page.secrets);
    for (const secret of page.secrets) {
      if (managed.has(secret.key_id)) {
        outcome.already_managed += 1;
        continue;
      }
      try {
        await adoptApiKey(db, adoptedKeyOf(secret));
        outcome.adopted.push({ key_id: secret.key_id, org_id: secret.org_id });
      } catch (error) {
        // Adopted meanwhile (a fixture load, another run): managed all the same.
        if (!isConditionFailure(error)) throw error;
        outcome.already_managed += 1;
      }
    }
    startKey = page.next;
  } while (startKey);
  return outcome;
}

/** The managed key of a secret stored alone. */
function adoptedKeyOf(secret: ApiKeySecretRecord): ApiKeyRecord {
  const record = newApiKeyRecord({
    key_id: secret.key_id,
    org_id: secret.org_id,
    kind: secret.user_id ? 'personal' : 'org',
    name: OPERATOR_KEY_NAME,
    // Only the hash is stored: the prefix says the kind, as every key of that kind starts.
    prefix: secret.user_id ? USER_KEY_PREFIX : 'pk_',
    scopes: secret.scopes,
    user_id: secret.user_id ?? null,
    created_at: secret.created_at,
    created_by: null,
    secret_hash: secret.key_hash,
    expires_at: secret.expires_at ?? null,
    rate_limit: secret.rate_limit ?? null,
  });
  return { ...record, revoked_at: secret.revoked_at ?? null };
}

/** Revokes a key by its id alone (the operator knows no organization); the authorizer refuses it once its cached result expires. */
export async function revokeApiKey(
  db: TableContext,
  keyId: string,
  now: Date,
): Promise<{ key_id: string; user_id?: string; revoked_at: string }> {
  const secret = await findApiKeySecretById(db, keyId);
  if (!secret) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist.`);
  const managed = await getApiKey(db, secret.org_id, keyId);
  if (managed) {
    const revoked = await revokeKey(db, managed, now);
    return { key_id: keyId, ...(revoked.user_id ? { user_id: revoked.user_id } : {}), revoked_at: revoked.revoked_at ?? now.toISOString() };
  }
  await markApiKeySecretRevoked(db, secret.key_hash, now.toISOString());
  return { key_id: keyId, ...(secret.user_id ? { user_id: secret.user_id } : {}), revoked_at: secret.revoked_at ?? now.toISOString() };
}

async function prepareKey(db: TableContext, input: ApiKeyInput, now: Date): Promise<{ key: string; record: ApiKeyRecord }> {
  const kind = input.userId ? 'user_key' : 'org_key';
  const key = input.key ?? generateApiKey(kind);
  if (apiKeyKind(key) !== kind) {
    const expected = kind === 'user_key' ? 'start with pk_user_' : 'start with pk_ (not pk_user_)';
    throw new ValidationError(
      `A ${kind === 'user_key' ? 'personal' : 'organization'} key must ${expected} and be 16-200 letters, digits or _ after pk_.`,
    );
  }
  if (!(await getOrganization(db, input.orgId))) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${input.orgId} does not exist.`);
  if (input.userId && !(await getMembership(db, input.orgId, input.userId))) {
    throw new NotFoundError('MEMBER_NOT_FOUND', `User ${input.userId} is not a member of ${input.orgId}.`);
  }
  const keyHash = hashApiKey(key);
  const record = newApiKeyRecord({
    key_id: input.keyId ?? apiKeyIdFromHash(keyHash),
    org_id: input.orgId,
    kind: input.userId ? 'personal' : 'org',
    name: input.name ?? (input.key ? 'Fixture key' : OPERATOR_KEY_NAME),
    prefix: keyPrefixOf(key),
    scopes: [...new Set(input.scopes)],
    user_id: input.userId ?? null,
    created_at: now.toISOString(),
    created_by: null,
    secret_hash: keyHash,
    rate_limit: input.rateLimit ?? null,
  });
  return { key, record };
}
