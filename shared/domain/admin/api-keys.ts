import type { Scope } from '../../auth/access';
import { apiKeyIdFromHash, apiKeyKind, generateApiKey, hashApiKey } from '../../auth/api-key-secrets';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors';
import { getApiKeyByHash, getApiKeyById, insertApiKey, markApiKeyRevoked, type ApiKeyRecord } from '../../storage/api-keys';
import type { TableContext } from '../../storage/dynamo';
import { getMembership } from '../../storage/memberships';
import { getOrganization } from '../../storage/organizations';
import { conflictOnTaken, type EnsureOutcome } from './directory';

export interface ApiKeyInput {
  orgId: string;
  /** Given: a personal key of this member (pk_user_...). Absent: an organization key. */
  userId?: string;
  scopes: Scope[];
  /** A given plaintext (fixtures); otherwise a new random key is generated. */
  key?: string;
}

/**
 * Issues an API key and returns its plaintext: the only time it is ever visible.
 * Only the key's SHA-256 hash is stored.
 */
export async function createApiKey(db: TableContext, input: ApiKeyInput, now: Date): Promise<{ key_id: string; key: string; record: ApiKeyRecord }> {
  const record = await prepareKey(db, input, now);
  await conflictOnTaken(insertApiKey(db, record.record), 'KEY_EXISTS', 'This API key is already registered.');
  return record;
}

/** Stores a fixture key unless it is already stored as given. */
export async function ensureApiKey(db: TableContext, input: ApiKeyInput & { key: string }, now: Date): Promise<EnsureOutcome> {
  const existing = await getApiKeyByHash(db, hashApiKey(input.key));
  if (!existing) return (await createApiKey(db, input, now), 'created');
  const sameScopes = [...existing.scopes].sort().join() === [...input.scopes].sort().join();
  if (existing.org_id !== input.orgId || existing.user_id !== input.userId || !sameScopes) {
    throw new ConflictError('KEY_EXISTS', `API key ${existing.key_id} is already registered with other settings.`);
  }
  return 'unchanged';
}

/** Revokes a key by its id; the authorizer refuses it once its cached result expires. */
export async function revokeApiKey(db: TableContext, keyId: string, now: Date): Promise<ApiKeyRecord> {
  const key = await getApiKeyById(db, keyId);
  if (!key) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist.`);
  await markApiKeyRevoked(db, key.key_hash, now.toISOString());
  return { ...key, revoked_at: key.revoked_at ?? now.toISOString() };
}

async function prepareKey(db: TableContext, input: ApiKeyInput, now: Date) {
  const kind = input.userId ? 'user_key' : 'org_key';
  const key = input.key ?? generateApiKey(kind);
  if (apiKeyKind(key) !== kind) {
    const expected = kind === 'user_key' ? 'start with pk_user_' : 'start with pk_ (not pk_user_)';
    throw new ValidationError(`A ${kind === 'user_key' ? 'personal' : 'organization'} key must ${expected} and be 16-200 letters, digits or _ after pk_.`);
  }
  if (!(await getOrganization(db, input.orgId))) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${input.orgId} does not exist.`);
  if (input.userId && !(await getMembership(db, input.orgId, input.userId))) {
    throw new NotFoundError('MEMBER_NOT_FOUND', `User ${input.userId} is not a member of ${input.orgId}.`);
  }
  const keyHash = hashApiKey(key);
  const record: ApiKeyRecord = {
    key_id: apiKeyIdFromHash(keyHash),
    key_hash: keyHash,
    org_id: input.orgId,
    user_id: input.userId,
    scopes: [...new Set(input.scopes)],
    created_at: now.toISOString(),
  };
  return { key_id: record.key_id, key, record };
}
