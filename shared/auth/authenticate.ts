import { AUTHORIZATION_PATTERN, type AuthenticationFailure } from './bearer-credentials';
import type { TableContext } from '../storage/dynamo';
import type { ApiKeySecretRecord } from '../storage/api-key-items';
import { getApiKeySecret } from '../storage/api-keys';
import { findUserIdByEmail, findUserIdByIdentity, linkIdentity } from '../storage/users';
import { apiKeyKind, hashApiKey } from './api-key-secrets';
import type { IdTokenVerifier } from './id-tokens';
import type { Principal } from './principal';

export interface AuthenticateDeps {
  db: TableContext;
  /** Absent when no issuer is configured: ID tokens are then refused. */
  verifyIdToken?: IdTokenVerifier;
  now: () => Date;
  /** Records an accepted API key's use (last_used_at); absent in tests that do not care. */
  recordKeyUse?: (secret: ApiKeySecretRecord, now: Date) => Promise<void>;
}

/** Who the caller is, or why the credential was refused. */
export type AuthenticationResult = { ok: true; principal: Principal } | { ok: false; reason: AuthenticationFailure };

const WELL_FORMED = new RegExp(AUTHORIZATION_PATTERN);
/** A compact JWS: three base64url parts (an unsecured JWT's signature is empty: jose refuses its alg). */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;
/** An expired key, or a replaced secret past its grace period, is refused like a revoked one. */
const passed = (time: string | undefined, now: Date) => time !== undefined && Date.parse(time) <= now.getTime();
const refused = (reason: AuthenticationFailure): AuthenticationResult => ({ ok: false, reason });
/** A key's own rate limit, for its principal (the handlers count against it). */
const limitOf = (key: ApiKeySecretRecord) => (key.rate_limit ? { rateLimit: key.rate_limit } : {});

/**
 * Resolves an Authorization header to a principal, or to the reason it is refused (the
 * authorizer answers 401 with it): missing, malformed (not `Bearer <token>` in any case of
 * the scheme, or a token that is neither an API key nor a JWT), expired (an ID token that
 * passed every other check), or invalid. Unknown, revoked, expired and forged keys all read
 * "invalid", so the answer never tells whether a key ever existed.
 * It checks who the caller is, not what they may do: that is the route policy's job.
 */
export async function authenticate(authorization: string | undefined, deps: AuthenticateDeps): Promise<AuthenticationResult> {
  const header = authorization?.trim() ?? '';
  if (!header) return refused('missing');
  const token = WELL_FORMED.exec(header)?.[1];
  if (!token) return refused('malformed');

  const keyKind = apiKeyKind(token);
  if (keyKind) {
    const key = await getApiKeySecret(deps.db, hashApiKey(token));
    const now = deps.now();
    if (!key || key.revoked_at || passed(key.expires_at, now) || passed(key.retires_at, now)) return refused('invalid');
    // A stored key's kind must agree with its prefix; anything else is not a key we issued.
    const principal: Principal | undefined =
      keyKind === 'user_key'
        ? key.user_id === undefined
          ? undefined
          : { kind: 'user_key', orgId: key.org_id, userId: key.user_id, keyId: key.key_id, scopes: key.scopes, ...limitOf(key) }
        : key.user_id
          ? undefined
          : { kind: 'org_key', orgId: key.org_id, keyId: key.key_id, scopes: key.scopes, ...limitOf(key) };
    if (!principal) return refused('invalid');
    await deps.recordKeyUse?.(key, now);
    return { ok: true, principal };
  }

  if (!JWT_SHAPE.test(token)) return refused('malformed');
  if (!deps.verifyIdToken) return refused('invalid');
  const verification = await deps.verifyIdToken(token);
  if (!verification.ok) return refused(verification.reason);
  const verified = verification.token;
  let userId = await findUserIdByIdentity(deps.db, verified.issuer, verified.subject);
  if (!userId && verified.email && verified.emailVerified) {
    userId = await findUserIdByEmail(deps.db, verified.email);
    // Later calls find the user by (issuer, subject) even if the email changes at the issuer.
    if (userId) await linkIdentity(deps.db, verified.issuer, verified.subject, userId, deps.now().toISOString());
  }
  return {
    ok: true,
    principal: {
      kind: 'id_token',
      userId,
      email: verified.email,
      emailVerified: verified.emailVerified,
      issuer: verified.issuer,
      subject: verified.subject,
      name: verified.name,
    },
  };
}
