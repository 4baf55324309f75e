import { principalFromContext, principalToContext, type Principal } from '../../shared/auth/principal';

describe('authorizer context', () => {
  it('carries a principal from the authorizer to the handler as string values', () => {
    const principal: Principal = {
      kind: 'id_token',
      userId: 'usr_1',
      scopes: [],
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
    expect(principalFromContext({ kind: 'org_key', org_id: 'o', key_id: 'k', scopes: 'users:read admin:everything' })?.scopes).toEqual(['users:read']);
  });

  it('rejects a missing or unknown kind', () => {
    expect(principalFromContext(null)).toBeUndefined();
    expect(principalFromContext({ kind: 'root' })).toBeUndefined();
  });
});
