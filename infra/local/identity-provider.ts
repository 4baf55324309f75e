import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

/**
 * The local OpenID Connect identity provider: one RS256 key kept under the data
 * directory, its JWKS served by the local server, and ID tokens minted by the CLI.
 * The authorizer verifies these tokens exactly as it verifies Cognito's.
 */
export interface LocalIdentityProvider {
  issuer: string;
  audience: string;
  jwks: { keys: JWK[] };
  issueIdToken(claims: { sub: string; email: string; name?: string; emailVerified?: boolean }, expiresInSeconds?: number): Promise<string>;
}

export const ISSUER_PATH = '/local-idp';
export const JWKS_PATH = `${ISSUER_PATH}/.well-known/jwks.json`;

export async function loadIdentityProvider(dataDir: string, issuer: string, audience: string): Promise<LocalIdentityProvider> {
  const keyFile = path.join(dataDir, 'idp', 'signing-key.jwk.json');
  if (!existsSync(keyFile)) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: `local-${Date.now().toString(36)}`, alg: 'RS256', use: 'sig' };
    mkdirSync(path.dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, JSON.stringify(jwk), { mode: 0o600 });
  }
  const privateJwk = JSON.parse(readFileSync(keyFile, 'utf8')) as JWK;
  const privateKey = await importJWK(privateJwk, 'RS256');
  const { kty, n, e, kid, alg, use } = privateJwk;
  return {
    issuer,
    audience,
    jwks: { keys: [{ kty, n, e, kid, alg, use }] },
    async issueIdToken(claims, expiresInSeconds = 3600) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email: claims.email, email_verified: claims.emailVerified ?? true, name: claims.name, token_use: 'id' })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(claims.sub)
        .setIssuedAt(Math.min(now, now + expiresInSeconds))
        .setExpirationTime(now + expiresInSeconds)
        .sign(privateKey);
    },
  };
}
