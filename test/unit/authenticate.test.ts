import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey } from 'jose';
import { authenticate, type AuthenticationResult } from '../../shared/auth/authenticate';
import { hashApiKey } from '../../shared/auth/api-key-secrets';
import { createIdTokenVerifier, type IdTokenVerifier } from '../../shared/auth/id-tokens';
import type { TableContext } from '../../shared/storage/dynamo';

/**
 * authenticate's answer for each kind of credential: a principal, or why it is refused.
 * The table is a stub that knows a few keys; ID tokens are verified for real (jose) against
 * a JWKS served on a loopback port.
 */

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'voice-org-test';

const ORG_KEY = `pk_org_${'a'.repeat(48)}`;
const USER_KEY = `pk_user_${'b'.repeat(48)}`;
const REVOKED_KEY = `pk_org_${'c'.repeat(48)}`;
const UNKNOWN_KEY = `pk_org_${'d'.repeat(48)}`;
/** Stored as an organization key although its prefix says personal: not a key we issued. */
const MISMATCHED_KEY = `pk_user_${'e'.repeat(48)}`;

/** Stored as the key store writes them (shared/storage/api-keys.ts): the hash, the org, the scopes, the user of a personal key. */
const storedKey = (key: string, fields: Record<string, unknown>) =>
  [hashApiKey(key), { key_hash: hashApiKey(key), created_at: '2024-06-01T00:00:00.000Z', ...fields }] as const;
const storedKeys: Record<string, Record<string, unknown>> = Object.fromEntries([
  storedKey(ORG_KEY, { key_id: 'key_org', org_id: 'org_1', scopes: ['users:read'] }),
  storedKey(USER_KEY, { key_id: 'key_user', org_id: 'org_1', user_id: 'usr_1', scopes: ['recordings:write'] }),
  storedKey(REVOKED_KEY, { key_id: 'key_revoked', org_id: 'org_1', scopes: ['users:read'], revoked_at: '2025-01-01T00:00:00.000Z' }),
  storedKey(MISMATCHED_KEY, { key_id: 'key_mismatch', org_id: 'org_1', scopes: ['users:read'] }),
]);

/** Answers GetItem on an API key hash from storedKeys, and finds nothing else. */
const db = {
  tableName: 'test',
  client: {
    async send(command: { input?: { Key?: Record<string, string> } }) {
      const pk = command.input?.Key?.PK ?? '';
      const hash = Object.keys(storedKeys).find((h) => pk.includes(h));
      return { Item: hash ? storedKeys[hash] : undefined };
    },
  },
} as unknown as TableContext;

let server: http.Server;
let signingKey: CryptoKey;
let verifyIdToken: IdTokenVerifier;
const KID = 'test-key';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
  server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  verifyIdToken = createIdTokenVerifier({ issuer: ISSUER, audiences: [AUDIENCE], jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const run = (
  authorization: string | undefined,
  verifier: { verifyIdToken?: IdTokenVerifier } = { verifyIdToken },
): Promise<AuthenticationResult> => authenticate(authorization, { db, ...verifier, now: () => new Date() });

async function idToken(
  options: { expiresIn?: string | number; key?: CryptoKey; issuer?: string; audience?: string; tokenUse?: string } = {},
) {
  return new SignJWT({ email: 'Ann@Example.com', email_verified: true, token_use: options.tokenUse ?? 'id' })
    .setProtectedHeader({ alg: 'RS256', kid: KID })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setSubject('subject-1')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(options.key ?? signingKey);
}

const refused = (reason: string) => ({ ok: false, reason });

describe('authenticate', () => {
  it('resolves an organization key, a personal key and an ID token to their principals', async () => {
    expect(await run(`Bearer ${ORG_KEY}`)).toEqual({
      ok: true,
      principal: { kind: 'org_key', orgId: 'org_1', userId: undefined, keyId: 'key_org', scopes: ['users:read'] },
    });
    expect(await run(`Bearer ${USER_KEY}`)).toEqual({
      ok: true,
      principal: { kind: 'user_key', orgId: 'org_1', userId: 'usr_1', keyId: 'key_user', scopes: ['recordings:write'] },
    });
    expect(await run(`Bearer ${await idToken()}`)).toEqual({
      ok: true,
      principal: expect.objectContaining({
        kind: 'id_token',
        issuer: ISSUER,
        subject: 'subject-1',
        email: 'ann@example.com',
        emailVerified: true,
      }),
    });
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme in any case (RFC 9110 §11.1): %s', async (scheme) => {
    expect(await run(`${scheme} ${ORG_KEY}`)).toMatchObject({ ok: true, principal: { keyId: 'key_org' } });
    expect(await run(`${scheme}  ${await idToken()}`)).toMatchObject({ ok: true, principal: { kind: 'id_token' } });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a blank header', '   '],
  ])('calls %s missing', async (_label, header) => {
    expect(await run(header)).toEqual(refused('missing'));
  });

  it.each([
    ['a scheme alone', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a scheme glued to the token', `Bearer${ORG_KEY}`],
    ['two tokens', `Bearer ${ORG_KEY} ${ORG_KEY}`],
    ['a token that is neither a key nor a JWT', 'Bearer not-a-token'],
    ['a JWT with two parts', 'Bearer aaa.bbb'],
    ['three parts that are not JSON', 'Bearer aaa.bbb.ccc'],
  ])('calls %s malformed', async (_label, header) => {
    expect(await run(header)).toEqual(refused('malformed'));
  });

  it('calls an ID token past its exp expired', async () => {
    expect(await run(`Bearer ${await idToken({ expiresIn: Math.floor(Date.now() / 1000) - 60 })}`)).toEqual(refused('expired'));
  });

  it('calls unknown, revoked and mismatched keys alike invalid, never saying whether a key existed', async () => {
    const answers = await Promise.all([UNKNOWN_KEY, REVOKED_KEY, MISMATCHED_KEY].map((key) => run(`Bearer ${key}`)));
    expect(answers).toEqual([refused('invalid'), refused('invalid'), refused('invalid')]);
  });

  it('calls forged, unsigned, wrong-issuer, wrong-audience and non-ID tokens invalid, even once expired', async () => {
    const { privateKey: stranger } = await generateKeyPair('RS256');
    const past = Math.floor(Date.now() / 1000) - 60;
    const tokens = [
      await idToken({ key: stranger }),
      // A forged token must not learn that it would have been "expired".
      await idToken({ key: stranger, expiresIn: past }),
      await idToken({ issuer: 'https://elsewhere.test' }),
      await idToken({ issuer: 'https://elsewhere.test', expiresIn: past }),
      await idToken({ audience: 'another-app' }),
      await idToken({ tokenUse: 'access' }),
    ];
    const valid = await idToken();
    tokens.push(`${valid.slice(0, -6)}AAAAAA`);
    // alg "none": well-formed, signed by nobody.
    tokens.push(
      new UnsecuredJWT({ email: 'ann@example.com', email_verified: true })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('subject-1')
        .setExpirationTime('1h')
        .encode(),
    );
    for (const token of tokens) expect(await run(`Bearer ${token}`)).toEqual(refused('invalid'));
  });

  it('calls an ID token invalid when no issuer is configured', async () => {
    expect(await run(`Bearer ${await idToken()}`, {})).toEqual(refused('invalid'));
  });
});
