import type { TableContext } from './dynamo';
import { changeStamp } from './change-stamp';
import { itemFields } from './item-fields';
import {
  memberSettingsFromItem,
  preferenceFromItem,
  profileFromItem,
  profileVersionFromItem,
  type MemberSettingsRecord,
  type PreferenceRecord,
  type ProfileRecord,
  type ProfileVersionRecord,
} from './member-settings-items';
import { keys } from './keys';
import { membershipFromItem, type Membership } from './membership-items';
import { batchGetAll, queryAll, queryPage } from './query-all';
import { tagFromItem, type Tag } from './tags';
import { commitParts, type TransactionPart, type TransactItem } from './transactions';
import { memberMinutesFromItem } from './transcription-usage';
import { userFromItem, type User } from './users';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

/** What one BatchGetItem tells of a member. */
export interface MemberState {
  membership?: Membership;
  user?: User;
  settings?: MemberSettingsRecord;
  profile?: ProfileRecord;
  preferences: Map<string, PreferenceRecord>;
  /** The member's billed transcription minutes of `usageMonth`, when asked (0 when none). */
  monthlyTranscriptionMinutes?: number;
}

/**
 * Reads a member's membership, user, settings item, and optionally the profile and given
 * preferences, in one BatchGetItem (one request for up to 100 keys).
 */
export async function readMemberState(
  db: TableContext,
  orgId: string,
  userId: string,
  { withProfile = false, preferenceIds = [], usageMonth }: { withProfile?: boolean; preferenceIds?: string[]; usageMonth?: string } = {},
): Promise<MemberState> {
  const usageKey = usageMonth === undefined ? undefined : keys.memberTranscriptionUsage(orgId, usageMonth, userId);
  const wanted = [
    keys.membership(orgId, userId),
    keys.user(userId),
    keys.memberSettings(orgId, userId),
    ...(withProfile ? [keys.memberProfile(orgId, userId)] : []),
    ...preferenceIds.map((id) => keys.preference(orgId, userId, id)),
    ...(usageKey ? [usageKey] : []),
  ];
  const state: MemberState = { preferences: new Map(), ...(usageKey ? { monthlyTranscriptionMinutes: 0 } : {}) };
  for (const item of await batchGetAll(db, wanted)) {
    const sk = itemFields(item, 'member state').string('SK');
    if (usageKey && item.PK === usageKey.PK && sk === usageKey.SK) state.monthlyTranscriptionMinutes = memberMinutesFromItem(item);
    else if (sk === 'USER') state.user = userFromItem(item);
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

/** Everything one settings update writes; committed as one transaction. */
export interface SettingsChange {
  /** The settings item as it was read (undefined: none yet); its revision guards the write. */
  previousRevision: number | undefined;
  settings: MemberSettingsRecord;
  profile?: { current: ProfileRecord; version: ProfileVersionRecord };
  preferences: { put: PreferenceRecord[]; create: PreferenceRecord[]; delete: string[] };
}

/** The parts of a settings transaction, by what their condition guards. */
export type SettingsPart =
  'membership' | 'settings' | 'profile' | 'profileVersion' | 'newPreference' | 'changedPreference' | 'deletedPreference';

/**
 * Commits a settings change all-or-nothing: the member must still be active, the
 * settings item must still be at the revision it was read at, new rows must be new and
 * changed or deleted preferences must still exist. A failed condition becomes a
 * WriteConflict naming its part (`membership`: the member is no longer active).
 */
export async function commitSettingsChange(db: TableContext, change: SettingsChange): Promise<void> {
  const { org_id: orgId, user_id: userId } = change.settings;
  const put = (Item: Record<string, unknown>, ConditionExpression?: string): TransactItem => ({
    Put: { TableName: db.tableName, Item, ConditionExpression },
  });
  const preferenceItem = (p: PreferenceRecord) => ({
    ...keys.preference(orgId, userId, p.id),
    ...keys.memberPreferencesIndex(orgId, userId, p.created_at, p.id),
    ...p,
  });
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
            write: put(
              { ...keys.profileVersion(orgId, userId, change.profile.version.version), ...change.profile.version },
              'attribute_not_exists(PK)',
            ),
          },
        ]
      : []),
    ...change.preferences.create.map((p) => ({
      name: 'newPreference' as const,
      write: put(preferenceItem(p), 'attribute_not_exists(PK)'),
    })),
    ...change.preferences.put.map((p) => ({ name: 'changedPreference' as const, write: put(preferenceItem(p), 'attribute_exists(PK)') })),
    ...change.preferences.delete.map((id) => ({
      name: 'deletedPreference' as const,
      write: { Delete: { TableName: db.tableName, Key: keys.preference(orgId, userId, id), ConditionExpression: 'attribute_exists(PK)' } },
    })),
  ];
  await commitParts(db, parts);
}

/** A member's preferences (newest first, at most `limit`): the standing instructions of their summaries are picked from them. */
export async function recorderPreferences(db: TableContext, orgId: string, userId: string, limit: number): Promise<PreferenceRecord[]> {
  return limit > 0 ? listPreferences(db, orgId, userId, { offset: 0, limit }) : [];
}

/** A member's settings item (conversation language, auto transcription), or undefined when they never saved any. */
export async function getRecorderSettings(db: TableContext, orgId: string, userId: string): Promise<MemberSettingsRecord | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.memberSettings(orgId, userId) }));
  return Item ? memberSettingsFromItem(Item) : undefined;
}
