import type { Role, Scope } from '../../shared/core/access';
import { authorizeCaller, requireCallerAccess, type Caller } from '../../shared/auth/policy';
import type { Principal } from '../../shared/auth/principal';
import { addMember, createOrganization, createUser } from '../../shared/operator-tasks/directory';
import { listEndpoints, type RouteName } from '../../shared/routes/manifest';
import type { Endpoint } from '../../shared/routes/route-definition';
import { localDeployment, unique } from '../support/api';

/**
 * The route policy (shared/auth/policy.ts) called directly, against memberships in the
 * emulator's table: every way a caller is admitted or refused, and the code it is refused with.
 */
const NOW = new Date('2026-01-01T00:00:00.000Z');
const { db } = localDeployment();

/** The route's own endpoint, or its public alias (where the organization comes from the credential). */
const endpoint = (routeName: RouteName, alias = false): Endpoint => {
  const found = listEndpoints().filter((e) => e.routeName === routeName)[alias ? 1 : 0];
  if (!found) throw new Error(`no ${alias ? 'alias' : 'endpoint'} for ${routeName}`);
  return found;
};
const idToken = (userId?: string): Principal => ({
  kind: 'id_token',
  userId,
  issuer: 'https://issuer.example.com',
  subject: `sub-${userId ?? 'new'}`,
  emailVerified: true,
});
const orgKey = (scopes: Scope[], orgId: string): Principal => ({ kind: 'org_key', orgId, keyId: 'key_org', scopes });

let orgId: string;
let otherOrgId: string;
const users = { owner: '', admin: '', viewer: '', removed: '', twoOrgs: '' };
const userKey = (userId: string): Principal => ({
  kind: 'user_key',
  orgId,
  keyId: 'key_user',
  userId,
  scopes: ['recordings:read', 'recordings:write'],
});

beforeAll(async () => {
  const suffix = unique();
  orgId = (await createOrganization(db, { id: `org_policy_${suffix}`, name: 'Policy' }, NOW)).org_id;
  otherOrgId = (await createOrganization(db, { id: `org_policy2_${suffix}`, name: 'Policy 2' }, NOW)).org_id;
  const member = async (name: keyof typeof users, role: Role, status: 'active' | 'removed' = 'active') => {
    const user = await createUser(db, { email: `${name}.${suffix}@policy.example`, display_name: name }, NOW);
    await addMember(db, { orgId, userId: user.user_id, role, status }, NOW);
    users[name] = user.user_id;
  };
  await member('owner', 'owner');
  await member('admin', 'admin');
  await member('viewer', 'viewer');
  await member('removed', 'admin', 'removed');
  await member('twoOrgs', 'admin');
  await addMember(db, { orgId: otherOrgId, userId: users.twoOrgs, role: 'owner' }, NOW);
});

describe('authorizeCaller with an ID token', () => {
  it('admits an active member with the role or higher, as that member', async () => {
    const caller = await authorizeCaller(endpoint('sendInvite'), idToken(users.owner), orgId, db);
    expect(caller).toEqual<Caller>({ kind: 'id_token', orgId, userId: users.owner, role: 'owner', actor: users.owner });
  });

  it('refuses a role below the route minimum', async () => {
    await expect(authorizeCaller(endpoint('sendInvite'), idToken(users.viewer), orgId, db)).rejects.toMatchObject({
      statusCode: 403,
      code: 'INSUFFICIENT_ROLE',
      message: 'This route needs the admin role or higher.',
    });
  });

  it.each([
    ['a removed member', () => idToken(users.removed), () => orgId],
    ['a member of another organization', () => idToken(users.owner), () => otherOrgId],
    ['someone who is not a user yet', () => idToken(undefined), () => orgId],
  ])('refuses %s as no active member', async (_case, principal, org) => {
    await expect(authorizeCaller(endpoint('listRecordings'), principal(), org(), db)).rejects.toMatchObject({
      statusCode: 403,
      code: 'INSUFFICIENT_ROLE',
      message: 'You are not an active member of this organization.',
    });
  });

  it('on a public alias without org_id, acts in the one organization the user may act in, and asks for org_id when there are several', async () => {
    expect(await authorizeCaller(endpoint('listUsers', true), idToken(users.admin), undefined, db)).toMatchObject({
      orgId,
      userId: users.admin,
    });
    await expect(authorizeCaller(endpoint('listUsers', true), idToken(users.twoOrgs), undefined, db)).rejects.toMatchObject({
      statusCode: 400,
      code: 'ORG_ID_REQUIRED',
    });
    expect(await authorizeCaller(endpoint('listUsers', true), idToken(users.twoOrgs), otherOrgId, db)).toMatchObject({
      orgId: otherOrgId,
      role: 'owner',
    });
  });

  it('is refused on a route for API keys only', async () => {
    await expect(authorizeCaller(endpoint('createUploadUrl'), idToken(users.owner), undefined, db)).rejects.toMatchObject({
      statusCode: 403,
      code: 'API_KEY_REQUIRED',
    });
  });
});

describe('authorizeCaller with API keys', () => {
  it('admits an org key of the organization with the scopes, acting as the key', async () => {
    expect(await authorizeCaller(endpoint('listUsers'), orgKey(['users:read'], orgId), orgId, db)).toEqual<Caller>({
      kind: 'org_key',
      orgId,
      keyId: 'key_org',
      scopes: ['users:read'],
      actor: 'key_org',
    });
    // On the public alias the organization is the key's.
    expect(await authorizeCaller(endpoint('listUsers', true), orgKey(['users:read'], orgId), undefined, db)).toMatchObject({ orgId });
  });

  it('refuses a key of another organization, and a key without every scope, naming the missing ones', async () => {
    await expect(authorizeCaller(endpoint('listUsers'), orgKey(['users:read'], otherOrgId), orgId, db)).rejects.toMatchObject({
      code: 'ORG_KEY_ORG_MISMATCH',
    });
    await expect(authorizeCaller(endpoint('listUsers'), orgKey(['recordings:read'], orgId), orgId, db)).rejects.toMatchObject({
      code: 'INSUFFICIENT_SCOPES',
      message: 'The API key lacks the scope users:read.',
    });
  });

  it('admits a personal key of an active member with the role, acting as its user', async () => {
    expect(await authorizeCaller(endpoint('createUploadUrl'), userKey(users.admin), undefined, db)).toEqual<Caller>({
      kind: 'user_key',
      orgId,
      userId: users.admin,
      keyId: 'key_user',
      role: 'admin',
      scopes: ['recordings:read', 'recordings:write'],
      actor: users.admin,
    });
  });

  it('refuses a personal key of a removed member or below the role, and each key kind where the route takes none', async () => {
    await expect(authorizeCaller(endpoint('createUploadUrl'), userKey(users.removed), undefined, db)).rejects.toMatchObject({
      code: 'INSUFFICIENT_ROLE',
    });
    await expect(authorizeCaller(endpoint('createUploadUrl'), userKey(users.viewer), undefined, db)).rejects.toMatchObject({
      code: 'INSUFFICIENT_ROLE',
    });
    await expect(authorizeCaller(endpoint('listUsers'), userKey(users.admin), orgId, db)).rejects.toMatchObject({
      code: 'USER_KEY_NOT_ALLOWED',
    });
    await expect(authorizeCaller(endpoint('createUploadUrl'), orgKey(['recordings:write'], orgId), undefined, db)).rejects.toMatchObject({
      code: 'ORG_KEY_NOT_ALLOWED',
    });
  });
});

describe('requireCallerAccess', () => {
  it('asks users for the role and org keys for the scope', () => {
    const viewer: Caller = { kind: 'id_token', orgId: 'o', userId: 'u', role: 'viewer', actor: 'u' };
    const key: Caller = { kind: 'org_key', orgId: 'o', keyId: 'k', scopes: ['recordings:read'], actor: 'k' };
    expect(() => requireCallerAccess(viewer, 'admin', 'recordings:write', 'The trash')).toThrow(
      'The trash needs the admin role or higher.',
    );
    expect(() => requireCallerAccess({ ...viewer, role: 'owner' }, 'admin', 'recordings:write', 'The trash')).not.toThrow();
    expect(() => requireCallerAccess(key, 'admin', 'recordings:write', 'The trash')).toThrow('The trash needs the scope recordings:write.');
    expect(() => requireCallerAccess({ ...key, scopes: ['recordings:write'] }, 'admin', 'recordings:write', 'The trash')).not.toThrow();
  });
});
