import { generateApiKey, keyPrefixOf, hashApiKey } from '../../auth/api-key-secrets';
import type { MemberCaller } from '../../auth/policy';
import { ForbiddenError, ConflictError } from '../../core/errors';
import type { RotateApiKeyBody } from '../../schemas/api-keys';
import type { ApiKeyRecord } from '../../storage/api-key-items';
import { rotateApiKeySecret } from '../../storage/api-keys';
import { WriteConflict } from '../../storage/transactions';
import { ApiKeyDeps, visibleKey, apiKeyView } from './api-key-views';

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
