import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { createApiKey, ensureApiKey, revokeApiKey } from '../../shared/operator-tasks/api-keys';
import {
  addMember,
  createOrganization,
  createUser,
  ensureMembership,
  ensureOrganization,
  ensureUser,
} from '../../shared/operator-tasks/directory';
import { listUsers } from '../../shared/domain/members/list-users';
import { getApiKeySecret } from '../../shared/storage/api-keys';
import { keys } from '../../shared/storage/keys';
import { hashApiKey } from '../../shared/auth/api-key-secrets';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { findUserIdByEmail, getUser } from '../../shared/storage/users';
import { localDeployment, unique } from '../support/api';
import { tableWithInterference } from '../support/transaction-conflicts';

/**
 * The directory functions the CLI and fixtures use (shared/operator-tasks), called directly
 * against the emulator's table: what they refuse, and what each idempotent "ensure" reports
 * and leaves behind.
 */
const { db } = localDeployment();
const T0 = new Date('2026-03-01T09:00:00.000Z');
const T1 = new Date('2026-03-02T09:00:00.000Z');

const activeMemberCount = async (orgId: string) => (await getOrganization(db, orgId))?.active_member_count;
const searchNames = async (orgId: string, q: string) =>
  (await listUsers(db, orgId, { q, page: 1, limit: 100 })).members.map((m) => m.display_name);

describe('createOrganization', () => {
  it('starts with no member, and refuses an id that exists (ORG_EXISTS) without touching it', async () => {
    const id = `org_dadm_${unique()}`;
    await expect(createOrganization(db, { id, name: 'First' }, T0)).resolves.toEqual({
      org_id: id,
      name: 'First',
      active_member_count: 0,
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
      // Its derived indexes are complete from the start (shared/storage/member-search.ts, recording-day-counts.ts, the templates' order keys, retention.ts).
      member_search_index_at: T0.toISOString(),
      recording_days_index_at: T0.toISOString(),
      retention_index_at: T0.toISOString(),
      templates_index_at: T0.toISOString(),
    });
    await expect(createOrganization(db, { id, name: 'Second' }, T1)).rejects.toMatchObject({ statusCode: 409, code: 'ORG_EXISTS' });
    expect(await getOrganization(db, id)).toMatchObject({ name: 'First', updated_at: T0.toISOString() });
  });
});

describe('createUser', () => {
  it('stores the email lower-case with UTC as the default time zone', async () => {
    const suffix = unique();
    const user = await createUser(db, { email: `Ann.${suffix}@Example.COM`, display_name: 'Ann' }, T0);
    expect(user).toEqual({
      user_id: expect.stringMatching(/^usr_/),
      email: `ann.${suffix}@example.com`,
      display_name: 'Ann',
      timezone: 'UTC',
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    });
    expect(await getUser(db, user.user_id)).toEqual(user);
    expect(await findUserIdByEmail(db, `ANN.${suffix}@example.com`)).toBe(user.user_id);
  });

  it('refuses a taken id or a taken email (any case) with USER_EXISTS, and writes nothing of the refused user', async () => {
    const suffix = unique();
    const first = await createUser(db, { id: `usr_dadm_${suffix}`, email: `bo.${suffix}@example.com`, display_name: 'Bo' }, T0);
    await expect(
      createUser(db, { id: first.user_id, email: `other.${suffix}@example.com`, display_name: 'Other' }, T1),
    ).rejects.toMatchObject({ statusCode: 409, code: 'USER_EXISTS' });
    await expect(
      createUser(db, { id: `usr_dadm2_${suffix}`, email: `BO.${suffix}@example.com`, display_name: 'Bo again' }, T1),
    ).rejects.toMatchObject({ statusCode: 409, code: 'USER_EXISTS' });

    // The user and its email guard are written together: neither refused user left half of itself.
    expect(await findUserIdByEmail(db, `other.${suffix}@example.com`)).toBeUndefined();
    expect(await getUser(db, `usr_dadm2_${suffix}`)).toBeUndefined();
    expect(await getUser(db, first.user_id)).toEqual(first);
  });
});

describe('addMember', () => {
  it('counts an active member in the organization, not a pending one', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_add_${suffix}`, name: 'Add' }, T0);
    const [ada, pia] = await Promise.all(
      ['ada', 'pia'].map((name) => createUser(db, { email: `${name}.${suffix}@example.com`, display_name: name }, T0)),
    );
    if (!ada || !pia) throw new Error('users not created');

    const member = await addMember(db, { orgId: org.org_id, userId: ada.user_id, role: 'admin' }, T1);
    expect(member).toEqual({
      org_id: org.org_id,
      user_id: ada.user_id,
      email: ada.email,
      display_name: 'ada',
      role: 'admin',
      status: 'active',
      member_since: T1.toISOString(),
      created_at: T1.toISOString(),
      updated_at: T1.toISOString(),
      recording_count: 0,
      latest_recording_at: null,
    });
    expect(await getMembership(db, org.org_id, ada.user_id)).toEqual(member);
    await addMember(db, { orgId: org.org_id, userId: pia.user_id, role: 'member', status: 'pending' }, T1);
    expect(await activeMemberCount(org.org_id)).toBe(1);
  });

  it('refuses an unknown organization or user (404) and a second membership (MEMBER_EXISTS), leaving the count alone', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_dup_${suffix}`, name: 'Dup' }, T0);
    const user = await createUser(db, { email: `dup.${suffix}@example.com`, display_name: 'Dup' }, T0);
    await expect(addMember(db, { orgId: `org_missing_${suffix}`, userId: user.user_id, role: 'member' }, T1)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ORG_NOT_FOUND',
    });
    await expect(addMember(db, { orgId: org.org_id, userId: `usr_missing_${suffix}`, role: 'member' }, T1)).rejects.toMatchObject({
      statusCode: 404,
      code: 'USER_NOT_FOUND',
    });

    await addMember(db, { orgId: org.org_id, userId: user.user_id, role: 'member' }, T1);
    await expect(addMember(db, { orgId: org.org_id, userId: user.user_id, role: 'admin' }, T1)).rejects.toMatchObject({
      statusCode: 409,
      code: 'MEMBER_EXISTS',
    });
    expect(await getMembership(db, org.org_id, user.user_id)).toMatchObject({ role: 'member' });
    expect(await activeMemberCount(org.org_id)).toBe(1);
  });
});

describe('ensureOrganization', () => {
  it('reports created, then unchanged, then updated when the name differs', async () => {
    const id = `org_dadm_ens_${unique()}`;
    expect(await ensureOrganization(db, { id, name: 'Acme' }, T0)).toBe('created');
    expect(await ensureOrganization(db, { id, name: 'Acme' }, T1)).toBe('unchanged');
    expect(await getOrganization(db, id)).toMatchObject({ updated_at: T0.toISOString() });
    expect(await ensureOrganization(db, { id, name: 'Acme Corp' }, T1)).toBe('updated');
    expect(await getOrganization(db, id)).toMatchObject({ name: 'Acme Corp', updated_at: T1.toISOString() });
  });
});

describe('ensureUser', () => {
  it('reports created, unchanged, then updated; a new name reaches the copies its memberships keep', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_user_${suffix}`, name: 'Names' }, T0);
    const input = { id: `usr_dadm_ens_${suffix}`, email: `cy.${suffix}@example.com`, display_name: `Cyrus ${suffix}` };
    expect(await ensureUser(db, input, T0)).toBe('created');
    await addMember(db, { orgId: org.org_id, userId: input.id, role: 'member' }, T0);
    expect(await ensureUser(db, input, T1)).toBe('unchanged');
    expect(await ensureUser(db, { ...input, email: input.email.toUpperCase() }, T1)).toBe('unchanged');

    expect(await ensureUser(db, { ...input, display_name: `Cyra ${suffix}`, timezone: 'Asia/Tokyo' }, T1)).toBe('updated');
    expect(await getUser(db, input.id)).toMatchObject({
      display_name: `Cyra ${suffix}`,
      timezone: 'Asia/Tokyo',
      created_at: T0.toISOString(),
      updated_at: T1.toISOString(),
    });
    expect(await getMembership(db, org.org_id, input.id)).toMatchObject({ display_name: `Cyra ${suffix}` });
    // Members are searched by the copy: the new name finds them, the old one no longer does.
    expect(await searchNames(org.org_id, `cyra ${suffix}`)).toEqual([`Cyra ${suffix}`]);
    expect(await searchNames(org.org_id, `cyrus ${suffix}`)).toEqual([]);
    // A time zone left out keeps the stored one.
    expect(await ensureUser(db, { ...input, display_name: `Cyra ${suffix}` }, T1)).toBe('unchanged');
  });

  it('refuses another email for an existing id (EMAIL_MISMATCH) and an email of another user (EMAIL_TAKEN)', async () => {
    const suffix = unique();
    const taken = await createUser(db, { email: `taken.${suffix}@example.com`, display_name: 'Taken' }, T0);
    const mine = { id: `usr_dadm_mine_${suffix}`, email: `mine.${suffix}@example.com`, display_name: 'Mine' };
    await ensureUser(db, mine, T0);
    await expect(ensureUser(db, { ...mine, email: `changed.${suffix}@example.com` }, T1)).rejects.toMatchObject({
      statusCode: 409,
      code: 'EMAIL_MISMATCH',
    });
    await expect(ensureUser(db, { id: `usr_dadm_new_${suffix}`, email: taken.email, display_name: 'New' }, T1)).rejects.toMatchObject({
      statusCode: 409,
      code: 'EMAIL_TAKEN',
    });
    expect(await getUser(db, `usr_dadm_new_${suffix}`)).toBeUndefined();
  });

  it('refuses with 404 USER_NOT_FOUND a user gone between its read and its update, writing nothing (no partial user is made)', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_gone_${suffix}`, name: 'Gone' }, T0);
    const input = { id: `usr_dadm_gone_${suffix}`, email: `gone.${suffix}@example.com`, display_name: `Gwen ${suffix}` };
    await ensureUser(db, input, T0);
    await addMember(db, { orgId: org.org_id, userId: input.id, role: 'member' }, T0);
    // ensureUser reads the user; it is deleted before the update's transaction goes out.
    const { table } = tableWithInterference(db, async (transaction) => {
      if (transaction === 1) await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.user(input.id) }));
    });

    await expect(ensureUser(table, { ...input, display_name: `Gwendolyn ${suffix}` }, T1)).rejects.toMatchObject({
      statusCode: 404,
      code: 'USER_NOT_FOUND',
    });
    expect(
      (await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.user(input.id), ConsistentRead: true }))).Item,
    ).toBeUndefined();
    expect(await getMembership(db, org.org_id, input.id)).toMatchObject({ display_name: `Gwen ${suffix}` });
    expect(await searchNames(org.org_id, `gwendolyn ${suffix}`)).toEqual([]);
  });
});

describe('ensureMembership', () => {
  it('reports created, unchanged, then updated; the active count follows the status', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_mem_${suffix}`, name: 'Members' }, T0);
    const user = await createUser(db, { email: `dee.${suffix}@example.com`, display_name: 'Dee' }, T0);
    const wanted = { orgId: org.org_id, userId: user.user_id, role: 'member' as const, status: 'active' as const };

    expect(await ensureMembership(db, wanted, T0)).toBe('created');
    expect(await ensureMembership(db, wanted, T1)).toBe('unchanged');
    expect(await activeMemberCount(org.org_id)).toBe(1);

    expect(await ensureMembership(db, { ...wanted, status: 'removed' }, T1)).toBe('updated');
    expect(await activeMemberCount(org.org_id)).toBe(0);
    expect(await ensureMembership(db, { ...wanted, role: 'admin' }, T1)).toBe('updated');
    expect(await activeMemberCount(org.org_id)).toBe(1);
    expect(await getMembership(db, org.org_id, user.user_id)).toMatchObject({
      role: 'admin',
      status: 'active',
      created_at: T0.toISOString(),
      updated_at: T1.toISOString(),
    });

    expect(await ensureMembership(db, { ...wanted, role: 'admin', memberSince: '2025-01-01T00:00:00.000Z' }, T1)).toBe('updated');
    expect(await getMembership(db, org.org_id, user.user_id)).toMatchObject({ member_since: '2025-01-01T00:00:00.000Z' });
    expect(await activeMemberCount(org.org_id)).toBe(1);
  });
});

describe('API keys', () => {
  it('ensureApiKey stores a fixture key once, then reports unchanged; other settings for it are KEY_EXISTS', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_key_${suffix}`, name: 'Keys' }, T0);
    const key = `pk_dadm${suffix}${'k'.repeat(20)}`;
    const input = { orgId: org.org_id, key, scopes: ['users:read' as const, 'invites:read' as const] };

    expect(await ensureApiKey(db, input, T0)).toBe('created');
    expect(await ensureApiKey(db, { ...input, scopes: ['invites:read', 'users:read'] }, T1)).toBe('unchanged');
    await expect(ensureApiKey(db, { ...input, scopes: ['users:read'] }, T1)).rejects.toMatchObject({ statusCode: 409, code: 'KEY_EXISTS' });
    expect(await getApiKeySecret(db, hashApiKey(key))).toEqual({
      key_id: expect.any(String),
      key_hash: hashApiKey(key),
      org_id: org.org_id,
      user_id: undefined,
      scopes: ['users:read', 'invites:read'],
      created_at: T0.toISOString(),
      revoked_at: undefined,
      expires_at: undefined,
      retires_at: undefined,
    });
  });

  it('a personal key needs a member; revoking keeps the first revocation time', async () => {
    const suffix = unique();
    const org = await createOrganization(db, { id: `org_dadm_pkey_${suffix}`, name: 'Personal keys' }, T0);
    const user = await createUser(db, { email: `kim.${suffix}@example.com`, display_name: 'Kim' }, T0);
    await expect(createApiKey(db, { orgId: org.org_id, userId: user.user_id, scopes: ['recordings:read'] }, T0)).rejects.toMatchObject({
      statusCode: 404,
      code: 'MEMBER_NOT_FOUND',
    });

    await addMember(db, { orgId: org.org_id, userId: user.user_id, role: 'member' }, T0);
    const { key, key_id } = await createApiKey(db, { orgId: org.org_id, userId: user.user_id, scopes: ['recordings:read'] }, T0);
    expect(key).toMatch(/^pk_user_/);
    expect(await revokeApiKey(db, key_id, T1)).toMatchObject({ key_id, user_id: user.user_id, revoked_at: T1.toISOString() });
    expect(await revokeApiKey(db, key_id, new Date('2026-03-03T00:00:00.000Z'))).toMatchObject({ revoked_at: T1.toISOString() });
    expect(await getApiKeySecret(db, hashApiKey(key))).toMatchObject({ revoked_at: T1.toISOString() });
  });
});
