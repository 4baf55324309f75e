import { config } from '../config';
import { profileCipher } from '../crypto/configured-cipher';
import type { SettingsWriteDeps } from '../domain/settings/update-member-settings';
import { table } from '../storage/dynamo';

/** The member settings routes' composition root: the table, the profile cipher, the model catalog and the clock, built from config on first use and kept. */

let settings: SettingsWriteDeps | undefined;

export function memberSettingsDeps(): SettingsWriteDeps {
  return (settings ??= { db: table(), cipher: profileCipher(), models: config().models, now: () => new Date() });
}
