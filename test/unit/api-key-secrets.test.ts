import { apiKeyIdFromHash, apiKeyKind, generateApiKey, hashApiKey } from '../../shared/auth/api-key-secrets';

describe('API key secrets', () => {
  it('tells org keys from personal keys by prefix, and other tokens from keys', () => {
    expect(apiKeyKind('pk_org_0123456789abcdef0123')).toBe('org_key');
    expect(apiKeyKind('pk_live_0123456789abcdef0123')).toBe('org_key');
    expect(apiKeyKind('pk_user_0123456789abcdef0123')).toBe('user_key');
    expect(apiKeyKind('eyJhbGciOiJSUzI1NiJ9.e30.sig')).toBeUndefined();
    expect(apiKeyKind('pk_short')).toBeUndefined();
    expect(apiKeyKind('pk_org_has-dash-0123456789')).toBeUndefined();
  });

  it('generates distinct keys of the asked kind with 192 bits of secret', () => {
    const org = generateApiKey('org_key');
    const user = generateApiKey('user_key');
    expect(org).toMatch(/^pk_org_[0-9a-f]{48}$/);
    expect(user).toMatch(/^pk_user_[0-9a-f]{48}$/);
    expect(apiKeyKind(org)).toBe('org_key');
    expect(apiKeyKind(user)).toBe('user_key');
    expect(new Set(Array.from({ length: 100 }, () => generateApiKey('org_key'))).size).toBe(100);
  });

  it('stores a SHA-256 hash, never the key, and derives a stable public id from it', () => {
    const key = 'pk_org_0123456789abcdef0123';
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('0123456789abcdef0123');
    expect(hashApiKey(key)).toBe(hash);
    expect(apiKeyIdFromHash(hash)).toBe(`key_${hash.slice(0, 20)}`);
  });
});
