import type { TableContext } from '../storage/dynamo';
import { getApiKeyByHash } from '../storage/api-keys';
import { findUserIdByEmail, findUserIdByIdentity, linkIdentity } from '../storage/users';
import { apiKeyKind, hashApiKey } from './api-key-secrets';
import type { IdTokenVerifier } from './id-tokens';
import type { Principal } from './principal';

export interface AuthenticateDeps {
  db: TableContext;
  /** Absent when no issuer is configured: ID tokens are then refused. */
  verifyIdToken?: IdTokenVerifier;
  now: () => Date;
}

/**
 * Resolves an Authorization header to a principal, or undefined when the credential is
 * missing, malformed, expired, forged, unknown or revoked (the authorizer answers 401).
 * It checks who the caller is, not what they may do: that is the route policy's job.
 */
export async function authenticate(authorization: string | undefined, deps: AuthenticateDeps): Promise<Principal | undefined> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!token) return undefined;

  const keyKind = apiKeyKind(token);
  if (keyKind) {
    const key = await getApiKeyByHash(deps.db, hashApiKey(token));
    if (!key || key.revoked_at) return undefined;
    // A stored key's kind must agree with its prefix; anything else is not a key we issued.
    if ((keyKind === 'user_key') !== Boolean(key.user_id)) return undefined;
    return { kind: keyKind, orgId: key.org_id, userId: key.user_id, keyId: key.key_id, scopes: key.scopes };
  }

  const verified = await deps.verifyIdToken?.(token);
  if (!verified) return undefined;
  let userId = await findUserIdByIdentity(deps.db, verified.issuer, verified.subject);
  if (!userId && verified.email && verified.emailVerified) {
    userId = await findUserIdByEmail(deps.db, verified.email);
    // Later calls find the user by (issuer, subject) even if the email changes at the issuer.
    if (userId) await linkIdentity(deps.db, verified.issuer, verified.subject, userId, deps.now().toISOString());
  }
  return {
    kind: 'id_token',
    userId,
    scopes: [],
    email: verified.email,
    emailVerified: verified.emailVerified,
    issuer: verified.issuer,
    subject: verified.subject,
    name: verified.name,
  };
}
