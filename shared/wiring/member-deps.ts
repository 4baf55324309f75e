import { config } from '../config';
import { profileCipher } from '../crypto/configured-cipher';
import type { MemberChangeDeps } from '../domain/members/change-member';
import type { SettingsWriteDeps } from '../domain/settings/update-member-settings';
import { table } from '../storage/dynamo';

/**
 * The members area's composition root: what its functions hand the domain (List users, Update
 * and Remove member, the member settings routes), built from config on first use and kept for
 * the warm function. Each export is its own function, so a bundle carries only the clients of
 * those it calls (the profile key's cipher only with the settings routes).
 */

let members: MemberChangeDeps | undefined;
let settings: SettingsWriteDeps | undefined;

/** The table and the clock: listing members, changing a role, removing a member. */
export function memberDeps(): MemberChangeDeps {
  return (members ??= { db: table(), now: () => new Date() });
}

/** The table, the profile cipher, the model catalog and the clock: reading and changing a member's settings. */
export function memberSettingsDeps(): SettingsWriteDeps {
  return (settings ??= { db: table(), cipher: profileCipher(), models: config().models, now: () => new Date() });
}
