import { inviteView, statusOf } from '../../shared/domain/invites/invite-views';
import { apiKeySecretFromItem } from '../../shared/storage/api-key-items';
import type { TableContext } from '../../shared/storage/dynamo';
import { emailGuardItem, inviteFromItem, inviteItem, tokenItem, type InviteRecord } from '../../shared/storage/invite-items';
import { StoredItemError } from '../../shared/storage/item-fields';
import { memberSettingsFromItem, preferenceFromItem } from '../../shared/storage/member-settings-items';
import { membershipFromItem, membershipItem, type Membership } from '../../shared/storage/membership-items';
import { TABLE } from '../../shared/storage/table-definition';
import { newUserParts, userFromItem, userItem, type User } from '../../shared/storage/users';

/**
 * The explicit mappers and item builders of users, memberships, API keys, member settings
 * and invites: what each builder writes reads back as the same record, attributes that
 * may be absent read with their defaults, and a drifted item is a StoredItemError.
 */
const invite: InviteRecord = {
  id: 'inv_1',
  org_id: 'org_1',
  email: 'nina@example.com',
  role: 'member',
  status: 'pending',
  created_at: '2026-05-01T10:00:00.000Z',
  updated_at: '2026-05-01T10:00:00.000Z',
  expires_at: '2026-05-08T10:00:00.000Z',
  invited_by: 'usr_owner',
  token_hash: 'a'.repeat(64),
  delivery: { status: 'sent', sent_at: '2026-05-01T10:00:01.000Z', attempts: 2, last_error: null },
};
const expiresAtEpoch = Date.parse(invite.expires_at) / 1000;

describe('invite items', () => {
  it('a pending invite reads back as written, without its keys or TTL; its optional fields read as absent', () => {
    const item = inviteItem(invite);
    expect(item).toMatchObject({ PK: 'ORG#org_1', SK: 'INVITE#inv_1', GSI1PK: 'ORG#org_1#INVITES', [TABLE.ttlAttribute]: expiresAtEpoch });
    expect(item).toMatchObject({
      email_status: 'sent',
      email_sent_at: '2026-05-01T10:00:01.000Z',
      email_attempts: 2,
      email_last_error: null,
    });
    expect(item).not.toHaveProperty('delivery');
    expect(inviteFromItem(item)).toEqual({
      ...invite,
      resent_at: undefined,
      accepted_at: undefined,
      accepted_by: undefined,
      revoked_at: undefined,
    });
  });

  it('an accepted invite stays in the table (no TTL) and keeps who accepted it', () => {
    const accepted: InviteRecord = { ...invite, status: 'accepted', accepted_at: '2026-05-02T00:00:00.000Z', accepted_by: 'usr_nina' };
    const item = inviteItem(accepted);
    expect(item).not.toHaveProperty(TABLE.ttlAttribute);
    expect(inviteFromItem(item)).toMatchObject({ status: 'accepted', accepted_by: 'usr_nina' });
  });

  it('the token lookup and the email guard expire with the invite', () => {
    expect(tokenItem(invite, invite.token_hash ?? '')).toEqual({
      PK: `INVITETOKEN#${invite.token_hash}`,
      SK: 'INVITETOKEN',
      org_id: 'org_1',
      invite_id: 'inv_1',
      [TABLE.ttlAttribute]: expiresAtEpoch,
    });
    expect(emailGuardItem(invite)).toEqual({
      PK: 'ORG#org_1',
      SK: 'INVITEEMAIL#nina@example.com',
      invite_id: 'inv_1',
      expires_at: invite.expires_at,
      [TABLE.ttlAttribute]: expiresAtEpoch,
    });
  });

  it('refuses a stored status, role or email status the code does not know', () => {
    expect(() => inviteFromItem({ ...inviteItem(invite), status: 'expired' })).toThrow(StoredItemError);
    expect(() => inviteFromItem({ ...inviteItem(invite), role: 'superuser' })).toThrow(/role is not one of viewer, member, admin, owner/);
    expect(() => inviteFromItem({ ...inviteItem(invite), email_status: 'bounced' })).toThrow(
      /email_status is not one of queued, sent, failed/,
    );
  });

  it('an invite whose email was not tried yet has no token hash; one stored before deliveries were recorded reads as sent', () => {
    const { token_hash: _hash, ...queued } = inviteItem({
      ...invite,
      delivery: { status: 'queued', sent_at: null, attempts: 0, last_error: null },
    });
    expect(inviteFromItem(queued)).toMatchObject({
      token_hash: undefined,
      delivery: { status: 'queued', sent_at: null, attempts: 0, last_error: null },
    });
    const { email_status: _s, email_sent_at: _at, email_attempts: _n, email_last_error: _e, ...legacy } = inviteItem(invite);
    expect(inviteFromItem(legacy).delivery).toEqual({ status: 'sent', sent_at: null, attempts: 1, last_error: null });
  });
});

describe('invite status', () => {
  it('a pending invite is expired from expires_at on; accepted and revoked ones stay what they are', () => {
    const at = (offsetMs: number) => new Date(Date.parse(invite.expires_at) + offsetMs);
    expect(statusOf(invite, at(-1))).toBe('pending');
    expect(statusOf(invite, at(0))).toBe('expired');
    expect(statusOf({ ...invite, status: 'accepted' }, at(1))).toBe('accepted');
    expect(statusOf({ ...invite, status: 'revoked' }, at(1))).toBe('revoked');
    expect(inviteView(invite, at(0))).toEqual({
      id: 'inv_1',
      email: invite.email,
      role: 'member',
      status: 'expired',
      created_at: invite.created_at,
      expires_at: invite.expires_at,
      email_status: 'sent',
      email_sent_at: '2026-05-01T10:00:01.000Z',
      email_attempts: 2,
      email_last_error: null,
    });
  });
});

describe('user items', () => {
  const user: User = {
    user_id: 'usr_1',
    email: 'ann@example.com',
    display_name: 'Ann',
    timezone: 'Europe/Paris',
    created_at: 'c',
    updated_at: 'u',
  };

  it('a user reads back as written', () => {
    expect(userFromItem(userItem(user))).toEqual(user);
    expect(() => userFromItem({ ...userItem(user), timezone: 3 })).toThrow(StoredItemError);
  });

  it('a new user is three named parts: user and email guard only if absent, the identity link written whole', () => {
    const db: TableContext = { client: undefined as never, tableName: 'T' };
    const parts = newUserParts(db, user, { issuer: 'https://issuer.example.com', subject: 'sub_1' });
    expect(parts.map((part) => part.name)).toEqual(['user', 'userEmailGuard', 'identityLink']);
    expect(parts[1]?.write.Put).toMatchObject({
      Item: { PK: 'EMAIL#ann@example.com', SK: 'EMAIL', user_id: 'usr_1' },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    expect(parts[2]?.write.Put).toEqual({
      TableName: 'T',
      Item: {
        PK: 'IDENTITY#https://issuer.example.com#sub_1',
        SK: 'IDENTITY',
        // The user's links, so that the last erasure of a person finds them without a Scan.
        GSI2PK: 'USER#usr_1#IDENTITIES',
        GSI2SK: 'https://issuer.example.com#sub_1',
        user_id: 'usr_1',
        issuer: 'https://issuer.example.com',
        subject: 'sub_1',
        created_at: 'c',
      },
    });
    expect(newUserParts(db, user).map((part) => part.name)).toEqual(['user', 'userEmailGuard']);
  });
});

describe('membership items', () => {
  const membership: Membership = {
    org_id: 'org_1',
    user_id: 'usr_1',
    email: 'ann@example.com',
    display_name: 'Ann Example',
    role: 'admin',
    status: 'active',
    member_since: 's',
    created_at: 'c',
    updated_at: 'u',
    recording_count: 0,
    latest_recording_at: null,
  };

  it('reads back as written; only an active membership is in the active-members index', () => {
    expect(membershipFromItem(membershipItem(membership))).toEqual(membership);
    expect(membershipItem(membership)).toMatchObject({ GSI1PK: 'ORG#org_1#ACTIVE_MEMBERS', search_text: 'ann@example.com\nann example' });
    expect(membershipItem({ ...membership, status: 'removed' })).not.toHaveProperty('GSI1PK');
    expect(
      membershipFromItem({ ...membershipItem(membership), latest_recording_at: '2026-05-01T00:00:00.000Z', recording_count: 3 }),
    ).toMatchObject({ recording_count: 3, latest_recording_at: '2026-05-01T00:00:00.000Z' });
  });

  it('refuses a stored status the code does not know', () => {
    expect(() => membershipFromItem({ ...membershipItem(membership), status: 'suspended' })).toThrow(StoredItemError);
  });
});

describe('API key secret items', () => {
  const stored = {
    PK: 'APIKEY#h',
    SK: 'APIKEY',
    key_id: 'key_1',
    key_hash: 'h',
    org_id: 'org_1',
    scopes: ['users:read', 'users:admin'],
    created_at: 'c',
  };

  it('an organization key has no user and, until revoked, no revocation time', () => {
    expect(apiKeySecretFromItem(stored)).toEqual({
      key_id: 'key_1',
      key_hash: 'h',
      org_id: 'org_1',
      user_id: undefined,
      scopes: ['users:read'],
      created_at: 'c',
      revoked_at: undefined,
      expires_at: undefined,
      retires_at: undefined,
    });
  });

  it('drops a scope the code no longer knows (it grants nothing), keeping the others', () => {
    expect(apiKeySecretFromItem({ ...stored, user_id: 'usr_1', revoked_at: 'r' })).toMatchObject({
      user_id: 'usr_1',
      scopes: ['users:read'],
      revoked_at: 'r',
    });
  });
});

describe('member settings items', () => {
  const stored = {
    PK: 'ORG#org_1',
    SK: 'MEMBER#usr_1#SETTINGS',
    org_id: 'org_1',
    user_id: 'usr_1',
    settings: { selected_theme: 'dark' },
    notifications: {},
    profile_version: 2,
    preference_count: 1,
    revision: 5,
    created_at: 'c',
    updated_at: 'u',
  };

  it('reads the chosen settings back through the schemas that accepted them', () => {
    const { PK: _pk, SK: _sk, ...record } = stored;
    expect(memberSettingsFromItem(stored)).toEqual(record);
  });

  it('refuses a stored setting those schemas do not accept (drift)', () => {
    expect(() => memberSettingsFromItem({ ...stored, settings: { selected_theme: 'neon' } })).toThrow(StoredItemError);
    expect(() => memberSettingsFromItem({ ...stored, notifications: { unknown_switch: true } })).toThrow(/notifications/);
  });

  it('a preference created without source ids reads them as null', () => {
    const preference = {
      id: 'pref_1',
      org_id: 'org_1',
      user_id: 'usr_1',
      command: 'c',
      command_type: 't',
      preference_content: 'p',
      metadata: { source: 'fixture' },
      created_at: 'c',
      updated_at: 'u',
    };
    expect(preferenceFromItem(preference)).toEqual({ ...preference, source_recording_id: null, source_summarization_id: null });
  });
});
