import * as v from 'valibot';
import { DisplayName, Email, HexColor, Id, MemberStatusName, RoleName, ScopeName, Timestamp, Timezone } from './common';
import { NotificationsPatch, PreferenceCreate, ProfilePatch, SettingsPatch } from './settings';

/** A fixture file for `cli seed` and the local demo; documented in docs/fixtures.md. */
export const Fixture = v.strictObject({
  orgs: v.optional(v.array(v.strictObject({ id: Id, name: DisplayName })), []),
  users: v.optional(
    v.array(v.strictObject({ id: Id, email: Email, display_name: DisplayName, timezone: v.optional(Timezone) })),
    [],
  ),
  memberships: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: Id,
        role: RoleName,
        status: v.optional(MemberStatusName, 'active'),
        member_since: v.optional(Timestamp),
      }),
    ),
    [],
  ),
  api_keys: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: v.optional(Id),
        key: v.string(),
        scopes: v.array(ScopeName),
      }),
    ),
    [],
  ),
  tags: v.optional(
    v.array(v.strictObject({ id: Id, org_id: Id, user_id: Id, name: DisplayName, color: HexColor })),
    [],
  ),
  /** Member settings, written like an Update member settings call (profiles are encrypted). */
  settings: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: Id,
        settings: v.optional(SettingsPatch),
        notifications: v.optional(NotificationsPatch),
        profile: v.optional(ProfilePatch.entries.profile),
        preferences: v.optional(v.array(v.strictObject({ id: v.optional(Id), ...PreferenceCreate.entries }))),
      }),
    ),
    [],
  ),
});
export type Fixture = v.InferOutput<typeof Fixture>;
