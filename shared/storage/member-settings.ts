import * as v from 'valibot';
import { NotificationsPatch, SettingsPatch } from '../schemas/settings';
import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { itemFields, StoredItemError } from './item-fields';
import { keys } from './keys';
import { membershipFromItem, type Membership } from './memberships';
import { batchGetAll, queryAll, queryPage } from './query-all';
import { tagFromItem, type Tag } from './tags';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';
import { userFromItem, type User } from './users';

/**
 * A member's settings item: only the fields ever written (defaults are applied on read,
 * so changing a default reaches everyone who never chose), plus the counters that must
 * move in the same transaction as the rows they count. `revision` is bumped by every
 * write and guards concurrent updates (optimistic locking).
 */
export interface MemberSettingsRecord {
  org_id: string;
  user_id: string;
  settings: SettingsPatch;
  notifications: NotificationsPatch;
  profile_version: number;
  preference_count: number;
  revision: number;
  created_at: string;
  updated_at: string;
  /** The sections the latest update changed (settings, notifications, profile, preferences): what its event names. */
  changed_sections?: string[];
}

/** The current profile ciphertext (Encryption SDK message) of a member. */
export interface ProfileRecord {
  org_id: string;
  user_id: string;
  version: number;
  ciphertext: Uint8Array;
  updated_at: string;
  updated_by: string;
}

export interface ProfileVersionRecord {
  org_id: string;
  user_id: string;
  version: number;
  source: string;
  actor: string;
  created_at: string;
  ciphertext: Uint8Array;
}

export interface PreferenceRecord {
  id: string;
  org_id: string;
  user_id: string;
  command: string;
  command_type: string;
  preference_content: string;
  source_recording_id: string | null;
  source_summarization_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** What one BatchGetItem tells of a member. */
export interface MemberState {
  membership?: Membership;
  user?: User;
  settings?: MemberSettingsRecord;
  profile?: ProfileRecord;
  preferences: Map<string, PreferenceRecord>;
}

/**
 * Reads a member's membership, user, settings item, and optionally the profile and given
 * preferences, in one BatchGetItem (one request for up to 100 keys).
 */
export async function readMemberState(
  db: TableContext,
  orgId: string,
  userId: string,
  { withProfile = false, preferenceIds = [] }: { withProfile?: boolean; preferenceIds?: string[] } = {},
): Promise<MemberState> {
  const wanted = [
    keys.membership(orgId, userId),
    keys.user(userId),
    keys.memberSettings(orgId, userId),
    ...(withProfile ? [keys.memberProfile(orgId, userId)] : []),
    ...preferenceIds.map((id) => keys.preference(orgId, userId, id)),
  ];
  const state: MemberState = { preferences: new Map() };
  for (const item of await batchGetAll(db, wanted)) {
    const sk = itemFields(item, 'member state').string('SK');
    if (sk === 'USER') state.user = userFromItem(item);
    else if (sk === `MEMBER#${userId}`) state.membership = membershipFromItem(item);
    else if (sk.endsWith('#SETTINGS')) state.settings = memberSettingsFromItem(item);
    else if (sk.endsWith('#PROFILE')) state.profile = profileFromItem(item);
    else {
      const preference = preferenceFromItem(item);
      state.preferences.set(preference.id, preference);
    }
  }
  return state;
}

/** A page of a member's preferences, newest first. */
export async function listPreferences(
  db: TableContext,
  orgId: string,
  userId: string,
  page: { offset: number; limit: number },
): Promise<PreferenceRecord[]> {
  const items = await queryPage(
    db,
    {
      TableName: db.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.memberPreferencesIndex(orgId, userId).GSI1PK },
      ScanIndexForward: false,
    },
    page,
  );
  return items.map(preferenceFromItem);
}

/** A member's tags, by name. */
export async function listMemberTags(db: TableContext, orgId: string, userId: string): Promise<Tag[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.memberTagsIndex(orgId, userId).GSI1PK },
  });
  return items.map(tagFromItem);
}

/** Every profile version row of a member, oldest first (audit and tests). */
export async function listProfileVersions(db: TableContext, orgId: string, userId: string): Promise<ProfileVersionRecord[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':prefix': `MEMBER#${userId}#PROFILEV#` },
  });
  return items.map(profileVersionFromItem);
}

/**
 * Reads a stored settings item. Its `settings` and `notifications` maps hold only fields
 * the update schemas accepted, so they are read back through the same schemas: a field
 * the schemas no longer accept is drift (StoredItemError), not a value to pass on.
 */
export function memberSettingsFromItem(item: Record<string, unknown>): MemberSettingsRecord {
  const field = itemFields(item, 'member settings');
  const section = <S extends v.GenericSchema>(name: string, schema: S): v.InferOutput<S> => {
    const read = v.safeParse(schema, field.map(name));
    if (!read.success) throw new StoredItemError(`Stored member settings ${String(item.PK)}|${String(item.SK)}: ${name} ${v.summarize(read.issues)}`);
    return read.output;
  };
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    settings: section('settings', SettingsPatch),
    notifications: section('notifications', NotificationsPatch),
    profile_version: field.number('profile_version'),
    preference_count: field.number('preference_count'),
    revision: field.number('revision'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
    ...(item.changed_sections !== undefined ? { changed_sections: field.stringList('changed_sections') } : {}),
  };
}

/** Reads a member's current profile item. */
export function profileFromItem(item: Record<string, unknown>): ProfileRecord {
  const field = itemFields(item, 'profile');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    version: field.number('version'),
    ciphertext: field.bytes('ciphertext'),
    updated_at: field.string('updated_at'),
    updated_by: field.string('updated_by'),
  };
}

/** Reads a profile version row. */
export function profileVersionFromItem(item: Record<string, unknown>): ProfileVersionRecord {
  const field = itemFields(item, 'profile version');
  return {
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    version: field.number('version'),
    source: field.string('source'),
    actor: field.string('actor'),
    created_at: field.string('created_at'),
    ciphertext: field.bytes('ciphertext'),
  };
}

/** Reads a preference item; its source ids are null when it was created without them. */
export function preferenceFromItem(item: Record<string, unknown>): PreferenceRecord {
  const field = itemFields(item, 'preference');
  return {
    id: field.string('id'),
    org_id: field.string('org_id'),
    user_id: field.string('user_id'),
    command: field.string('command'),
    command_type: field.string('command_type'),
    preference_content: field.string('preference_content'),
    source_recording_id: field.nullableString('source_recording_id'),
    source_summarization_id: field.nullableString('source_summarization_id'),
    metadata: field.map('metadata'),
    created_at: field.string('created_at'),
    updated_at: field.string('updated_at'),
  };
}

/** Everything one settings update writes; committed as one transaction. */
export interface SettingsChange {
  /** The settings item as it was read (undefined: none yet); its revision guards the write. */
  previousRevision: number | undefined;
  settings: MemberSettingsRecord;
  profile?: { current: ProfileRecord; version: ProfileVersionRecord };
  preferences: { put: PreferenceRecord[]; create: PreferenceRecord[]; delete: string[] };
}

/** The parts of a settings transaction, by what their condition guards. */
export type SettingsPart = 'membership' | 'settings' | 'profile' | 'profileVersion' | 'newPreference' | 'changedPreference' | 'deletedPreference';

/**
 * Commits a settings change all-or-nothing: the member must still be active, the
 * settings item must still be at the revision it was read at, new rows must be new and
 * changed or deleted preferences must still exist. A failed condition becomes a
 * WriteConflict naming its part (`membership`: the member is no longer active).
 */
export async function commitSettingsChange(db: TableContext, change: SettingsChange): Promise<void> {
  const { org_id: orgId, user_id: userId } = change.settings;
  const put = (Item: Record<string, unknown>, ConditionExpression?: string): TransactItem => ({ Put: { TableName: db.tableName, Item, ConditionExpression } });
  const preferenceItem = (p: PreferenceRecord) => ({ ...keys.preference(orgId, userId, p.id), ...keys.memberPreferencesIndex(orgId, userId, p.created_at, p.id), ...p });
  const settingsItem = { ...keys.memberSettings(orgId, userId), ...change.settings, ...changeStamp() };
  const parts: TransactionPart<SettingsPart>[] = [
    {
      name: 'membership',
      write: {
        ConditionCheck: {
          TableName: db.tableName,
          Key: keys.membership(orgId, userId),
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active' },
        },
      },
    },
    {
      name: 'settings',
      write:
        change.previousRevision === undefined
          ? put(settingsItem, 'attribute_not_exists(PK)')
          : {
              Put: {
                TableName: db.tableName,
                Item: settingsItem,
                ConditionExpression: 'revision = :revision',
                ExpressionAttributeValues: { ':revision': change.previousRevision },
              },
            },
    },
    ...(change.profile
      ? [
          { name: 'profile' as const, write: put({ ...keys.memberProfile(orgId, userId), ...change.profile.current }) },
          {
            name: 'profileVersion' as const,
            write: put({ ...keys.profileVersion(orgId, userId, change.profile.version.version), ...change.profile.version }, 'attribute_not_exists(PK)'),
          },
        ]
      : []),
    ...change.preferences.create.map((p) => ({ name: 'newPreference' as const, write: put(preferenceItem(p), 'attribute_not_exists(PK)') })),
    ...change.preferences.put.map((p) => ({ name: 'changedPreference' as const, write: put(preferenceItem(p), 'attribute_exists(PK)') })),
    ...change.preferences.delete.map((id) => ({
      name: 'deletedPreference' as const,
      write: { Delete: { TableName: db.tableName, Key: keys.preference(orgId, userId, id), ConditionExpression: 'attribute_exists(PK)' } },
    })),
  ];
  await commitParts(db, parts);
}
