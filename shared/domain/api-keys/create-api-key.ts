import { generateApiKey, hashApiKey, apiKeyIdFromHash, keyPrefixOf } from '../../auth/api-key-secrets';
import type { MemberCaller } from '../../auth/policy';
import { ForbiddenError, ValidationError } from '../../core/errors';
import type { CreateApiKeyBody, ApiKey } from '../../schemas/api-keys';
import { newApiKeyRecord } from '../../storage/api-key-items';
import { insertApiKey } from '../../storage/api-keys';
import { ApiKeyDeps, managesAllKeys, requireScopesWithin, apiKeyView } from './api-key-views';

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
