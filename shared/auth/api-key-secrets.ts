import { createHash, randomBytes } from 'node:crypto';

/** Personal keys start with this; organization keys start with pk_ and anything else. */
export const USER_KEY_PREFIX = 'pk_user_';
export const ORG_KEY_PREFIX = 'pk_org_';
const API_KEY_SHAPE = /^pk_[A-Za-z0-9_]{16,200}$/;

export type ApiKeyKind = 'org_key' | 'user_key';

/** Tells an API key from other bearer tokens, and which kind it is; undefined when not an API key. */
export function apiKeyKind(token: string): ApiKeyKind | undefined {
  if (!API_KEY_SHAPE.test(token)) return undefined;
  return token.startsWith(USER_KEY_PREFIX) ? 'user_key' : 'org_key';
}

/** A new random key: 192 bits of secret, hex so it survives copy and paste anywhere. */
export function generateApiKey(kind: ApiKeyKind): string {
  const secret = randomBytes(24).toString('hex');
  return `${kind === 'user_key' ? USER_KEY_PREFIX : ORG_KEY_PREFIX}${secret}`;
}

/**
 * The stored form of a key. A plain SHA-256 is enough for a high-entropy random secret
 * (no dictionary to try), and lets the authorizer find a key with one GetItem.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The public id of a key, derived from its hash so re-seeding a fixture key gives the same id. */
export function apiKeyIdFromHash(keyHash: string): string {
  return `key_${keyHash.slice(0, 20)}`;
}

/** The first characters of a key, shown in lists to recognise it: its kind's prefix and 6 characters of the secret (24 of its 192 bits). */
export function keyPrefixOf(key: string): string {
  const head = key.startsWith(USER_KEY_PREFIX) ? USER_KEY_PREFIX : key.startsWith(ORG_KEY_PREFIX) ? ORG_KEY_PREFIX : 'pk_';
  return key.slice(0, head.length + 6);
}
