import { authenticate } from '../../shared/auth/authenticate';
import { keyUseRecorder } from '../../shared/auth/key-usage';
import type { MemberCaller } from '../../shared/auth/policy';
import { ORG_KEY_SCOPE_ROLES, PERSONAL_KEY_SCOPE_ROLES, scopesAllowedFor } from '../../shared/auth/scope-ceilings';
import { SCOPES } from '../../shared/core/access';
import { createApiKey as createOperatorKey, ensureApiKey } from '../../shared/operator-tasks/api-keys';
import { rotateApiKey } from '../../shared/domain/api-keys/rotate-api-key';
import { revokeApiKey } from '../../shared/domain/api-keys/revoke-api-key';
import { getApiKey } from '../../shared/domain/api-keys/get-api-key';
import { createApiKey } from '../../shared/domain/api-keys/create-api-key';
import { getApiKey as storedGetApiKey } from '../../shared/storage/api-keys';
import { localDeployment } from '../support/api';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * The key domain with an injected clock (shared/domain/api-keys, shared/auth/authenticate.ts):
 * a replaced secret works until its grace period ends and not a millisecond after, an
 * expiry is exact, a use is recorded at most once an hour, and the scope ceilings follow
 * the route manifest.
 */
const { db } = localDeployment();
const T0 = new Date('2026-11-23T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

let org: Awaited<ReturnType<typeof seedOrg>>;
let admin: MemberCaller;
beforeAll(async () => {
  org = await seedOrg(buildOrg({ label: 'dkeys' }));
  admin = { kind: 'id_token', orgId: org.org, userId: org.people.admin.id, role: 'admin', actor: org.people.admin.id };
});

/** Whether the authorizer's check accepts a secret at a time. */
const acceptedAt = async (secret: string, now: Date) => (await authenticate(`Bearer ${secret}`, { db, now: () => now })).ok;

describe('rotation grace period (injected clock)', () => {
  it('the replaced secret works until the end of its grace period, then is refused; the new one works throughout', async () => {
    const created = await createApiKey({ db, now: () => T0 }, admin, { kind: 'org', name: 'Grace', scopes: ['recordings:read'] });
    const rotated = await rotateApiKey({ db, now: () => at(HOUR) }, admin, created.id, { grace_period_seconds: 2 * 3600 });
    expect(rotated.previous_secret_expires_at).toBe(at(3 * HOUR).toISOString());
    expect(await acceptedAt(created.secret, at(3 * HOUR - 1))).toBe(true);
    expect(await acceptedAt(created.secret, at(3 * HOUR))).toBe(false);
    expect(await acceptedAt(rotated.secret, at(3 * HOUR))).toBe(true);
    expect(await acceptedAt(rotated.secret, at(1000 * HOUR))).toBe(true);
  });

  it('without a grace period the replaced secret is refused at once', async () => {
    const created = await createApiKey({ db, now: () => T0 }, admin, { kind: 'org', name: 'No grace', scopes: ['recordings:read'] });
    const rotated = await rotateApiKey({ db, now: () => at(1) }, admin, created.id, { grace_period_seconds: 0 });
    expect(await acceptedAt(created.secret, at(1))).toBe(false);
    expect(await acceptedAt(rotated.secret, at(1))).toBe(true);
  });

  it('an expiry is exact: accepted until expires_at, refused from then on (and the key reads expired)', async () => {
    const created = await createApiKey({ db, now: () => T0 }, admin, {
      kind: 'org',
      name: 'Expiring',
      scopes: ['recordings:read'],
      expires_at: at(HOUR).toISOString(),
    });
    expect(await acceptedAt(created.secret, at(HOUR - 1))).toBe(true);
    expect(await acceptedAt(created.secret, at(HOUR))).toBe(false);
    expect((await getApiKey({ db, now: () => at(HOUR) }, admin, created.id)).status).toBe('expired');
  });

  it('a revoked key is refused at any time, its grace-period secret too', async () => {
    const created = await createApiKey({ db, now: () => T0 }, admin, { kind: 'org', name: 'Revoked', scopes: ['recordings:read'] });
    const rotated = await rotateApiKey({ db, now: () => T0 }, admin, created.id, { grace_period_seconds: 86_400 });
    await revokeApiKey({ db, now: () => at(1) }, admin, created.id);
    expect(await acceptedAt(created.secret, at(2))).toBe(false);
    expect(await acceptedAt(rotated.secret, at(2))).toBe(false);
  });
});

describe('last_used_at', () => {
  it('is written at most once an hour per key, even by several authorizers', async () => {
    const created = await createApiKey({ db, now: () => T0 }, admin, { kind: 'org', name: 'Used', scopes: ['recordings:read'] });
    const [first, second] = [keyUseRecorder(db), keyUseRecorder(db)];
    const use = (recorder: typeof first, now: Date) =>
      authenticate(`Bearer ${created.secret}`, { db, now: () => now, recordKeyUse: recorder });
    const lastUsed = async () => (await storedGetApiKey(db, org.org, created.id))?.last_used_at;

    await use(first, at(1000));
    expect(await lastUsed()).toBe(at(1000).toISOString());
    await use(second, at(2000));
    await use(first, at(HOUR));
    expect(await lastUsed()).toBe(at(1000).toISOString());
    // The second authorizer last tried at 2000 ms: an hour after that it writes again.
    await use(second, at(HOUR + 2000));
    expect(await lastUsed()).toBe(at(HOUR + 2000).toISOString());
  });
});

describe('scope ceilings, from the route manifest', () => {
  it('owners may give an organization key every scope, admins all but governance:write (only an owner gives it); below admin, only what their role does in person', () => {
    expect(scopesAllowedFor('org', 'owner')).toEqual([...SCOPES]);
    expect(scopesAllowedFor('org', 'admin')).toEqual(SCOPES.filter((scope) => scope !== 'governance:write'));
    expect(scopesAllowedFor('org', 'member')).toEqual(SCOPES.filter((scope) => ['viewer', 'member'].includes(ORG_KEY_SCOPE_ROLES[scope])));
    // Reading the organization's vocabulary is a member's: a viewer's key would reach it (no viewer creates org keys anyway).
    expect(scopesAllowedFor('org', 'viewer')).toEqual([]);
  });

  it('a personal key carries only scopes personal-key routes ask for, at the role they ask', () => {
    expect(PERSONAL_KEY_SCOPE_ROLES).toEqual({ 'recordings:read': 'viewer', 'recordings:write': 'member' });
    expect(scopesAllowedFor('personal', 'viewer')).toEqual(['recordings:read']);
    expect(scopesAllowedFor('personal', 'owner')).toEqual(['recordings:read', 'recordings:write']);
  });
});

describe('operator keys', () => {
  it('the CLI creates managed keys with no creator, and a fixture key stored before keys were managed is adopted into lists', async () => {
    const { key_id } = await createOperatorKey(db, { orgId: org.org, scopes: ['users:read'] }, T0);
    expect(await storedGetApiKey(db, org.org, key_id)).toMatchObject({
      kind: 'org',
      name: 'Operator key',
      created_by: null,
      scopes: ['users:read'],
    });
    const fixtureKey = `pk_dkeys_fixture_${org.id}_aaaaaaaaaaaa`;
    expect(await ensureApiKey(db, { orgId: org.org, key: fixtureKey, scopes: ['users:read'] }, T0)).toBe('created');
    expect(await ensureApiKey(db, { orgId: org.org, key: fixtureKey, scopes: ['users:read'] }, T0)).toBe('unchanged');
  });

  it('a fixture key keeps the id and name it gives; no other key takes that id, and the key keeps it', async () => {
    const keyId = `key_dkeys_${org.id}_given`;
    const key = `pk_dkeys_given_${org.id}_aaaaaaaaaaaa`;
    expect(await ensureApiKey(db, { orgId: org.org, key, scopes: ['users:read'], keyId, name: 'CRM sync' }, T0)).toBe('created');
    expect(await storedGetApiKey(db, org.org, keyId)).toMatchObject({ key_id: keyId, name: 'CRM sync', created_by: null });
    expect(await authenticate(`Bearer ${key}`, { db, now: () => T0 })).toMatchObject({ ok: true, principal: { kind: 'org_key', keyId } });
    expect(await ensureApiKey(db, { orgId: org.org, key, scopes: ['users:read'], keyId }, T0)).toBe('unchanged');
    const other = `pk_dkeys_other_${org.id}_aaaaaaaaaaaa`;
    await expect(ensureApiKey(db, { orgId: org.org, key: other, scopes: ['users:read'], keyId }, T0)).rejects.toMatchObject({
      code: 'KEY_EXISTS',
    });
    await expect(ensureApiKey(db, { orgId: org.org, key, scopes: ['users:read'], keyId: `${keyId}_moved` }, T0)).rejects.toMatchObject({
      code: 'KEY_EXISTS',
    });
  });
});
