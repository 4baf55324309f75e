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

/** A verifier bound to one issuer; it keeps the JWKS cached between invocations. */
export type IdTokenVerifier = (token: string) => Promise<VerifiedIdToken | undefined>;

/**
 * Builds an RS256 ID token verifier: signature against the issuer's JWKS, then iss, aud,
 * exp and nbf (by jose), and token_use when the issuer sets it (Cognito does: it must be "id").
 * A token that fails any check gives undefined (the authorizer answers 401); an issuer
 * whose JWKS cannot be fetched throws, so an outage is a 5xx, not a wave of 401s.
 */
export function createIdTokenVerifier(settings: IdTokenSettings): IdTokenVerifier {
  const keySet = createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  return async (token) => {
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
      if (error instanceof errors.JOSEError && !outage) return undefined;
      throw error;
    }
    if (payload.token_use !== undefined && payload.token_use !== 'id') return undefined;
    const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
    return {
      issuer: payload.iss!,
      subject: payload.sub!,
      email,
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      name: typeof payload.name === 'string' ? payload.name : undefined,
    };
  };
}
