import { principalFromContext, principalIdOf, principalToContext, type Principal } from '../../shared/auth/principal';

describe('authorizer context', () => {
  it('carries a principal from the authorizer to the handler as string values', () => {
    const principal: Principal = {
      kind: 'id_token',
      userId: 'usr_1',
      email: 'a@example.com',
      emailVerified: true,
      issuer: 'https://issuer.example.com',
      subject: 'sub-1',
      name: 'A',
    };
    const context = principalToContext(principal);
    expect(Object.values(context).every((value) => typeof value === 'string')).toBe(true);
    expect(principalFromContext({ ...context, principalId: 'usr_1', integrationLatency: 3 })).toEqual(principal);
  });

  it('round-trips an org key with its scopes, and drops unknown scopes', () => {
    const principal: Principal = { kind: 'org_key', orgId: 'org_1', keyId: 'key_1', scopes: ['users:read', 'users:write'] };
    expect(principalFromContext(principalToContext(principal))).toEqual(principal);
    expect(principalFromContext({ kind: 'org_key', org_id: 'o', key_id: 'k', scopes: 'users:read admin:everything' })).toEqual({
      kind: 'org_key',
      orgId: 'o',
      keyId: 'k',
      scopes: ['users:read'],
    });
  });

  it('round-trips a personal key and an ID token of someone who is not a user yet', () => {
    const personal: Principal = { kind: 'user_key', orgId: 'org_1', keyId: 'key_2', userId: 'usr_2', scopes: ['recordings:write'] };
    expect(principalFromContext(principalToContext(personal))).toEqual(personal);
    const newcomer: Principal = { kind: 'id_token', issuer: 'https://issuer.example.com', subject: 'sub-9', emailVerified: false };
    expect(principalFromContext(principalToContext(newcomer))).toEqual(newcomer);
  });

  it('refuses a context that lacks what its kind requires', () => {
    expect(principalFromContext({ kind: 'org_key', key_id: 'k' })).toBeUndefined();
    expect(principalFromContext({ kind: 'user_key', org_id: 'o', key_id: 'k' })).toBeUndefined();
    expect(principalFromContext({ kind: 'id_token', issuer: 'https://issuer.example.com' })).toBeUndefined();
    expect(principalFromContext({ kind: 'org_key', org_id: '', key_id: 'k' })).toBeUndefined();
  });

  it('names the principal as API Gateway records it: the user, else the key, else the subject', () => {
    expect(principalIdOf({ kind: 'user_key', orgId: 'o', keyId: 'key_1', userId: 'usr_1', scopes: [] })).toBe('usr_1');
    expect(principalIdOf({ kind: 'org_key', orgId: 'o', keyId: 'key_1', scopes: [] })).toBe('key_1');
    expect(principalIdOf({ kind: 'id_token', userId: 'usr_3', issuer: 'i', subject: 's', emailVerified: true })).toBe('usr_3');
    expect(principalIdOf({ kind: 'id_token', issuer: 'i', subject: 's', emailVerified: true })).toBe('s');
  });

  it('rejects a missing or unknown kind', () => {
    expect(principalFromContext(null)).toBeUndefined();
    expect(principalFromContext({ kind: 'root' })).toBeUndefined();
  });
});
