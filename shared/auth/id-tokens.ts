import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';

export interface IdTokenSettings {
  issuer: string;
  audiences: string[];
  jwksUrl: string;
}

export interface VerifiedIdToken {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/** Why an ID token was refused: not a JWT at all, past its exp, or failing any other check. */
export type IdTokenFailure = 'malformed' | 'expired' | 'invalid';

/** The outcome of verifying one ID token. */
export type IdTokenVerification = { ok: true; token: VerifiedIdToken } | { ok: false; reason: IdTokenFailure };

/** A verifier bound to one issuer; it keeps the JWKS cached between invocations. */
export type IdTokenVerifier = (token: string) => Promise<IdTokenVerification>;

/**
 * Builds an RS256 ID token verifier: signature against the issuer's JWKS, then iss, aud,
 * exp and nbf (by jose), and token_use when the issuer sets it (Cognito does: it must be "id").
 * A token that fails a check gives its reason (the authorizer answers 401 with it); an issuer
 * whose JWKS cannot be fetched throws, so an outage is a 5xx, not a wave of 401s.
 * "expired" is only ever said of a token whose signature, issuer and audience held (jose
 * checks exp after them), so it reveals nothing about forged tokens.
 */
export function createIdTokenVerifier(settings: IdTokenSettings): IdTokenVerifier {
  // Made with the first ID token: its `new Headers()` loads Node's fetch (undici, about 10 ms),
  // which a cold start answering an API key never needs.
  let keySet: ReturnType<typeof createRemoteJWKSet> | undefined;
  return async (token) => {
    keySet ??= createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audiences,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      const outage = error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid;
      if (!(error instanceof errors.JOSEError) || outage) throw error;
      return { ok: false, reason: failureOf(error) };
    }
    if (payload.token_use !== undefined && payload.token_use !== 'id') return { ok: false, reason: 'invalid' };
    // jwtVerify checked `iss` against the issuer and required `sub`; a token without them never gets here.
    const { iss: issuer, sub: subject } = payload;
    if (!issuer || !subject) return { ok: false, reason: 'invalid' };
    const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
    return {
      ok: true,
      token: {
        issuer,
        subject,
        email,
        emailVerified: payload.email_verified === true || payload.email_verified === 'true',
        name: typeof payload.name === 'string' ? payload.name : undefined,
      },
    };
  };
}

function failureOf(error: InstanceType<typeof errors.JOSEError>): IdTokenFailure {
  if (error instanceof errors.JWTExpired) return 'expired';
  // Not three base64url parts, or a header or payload that is not a JSON object.
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'malformed';
  return 'invalid';
}
