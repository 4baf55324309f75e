import { createHash } from 'node:crypto';
import type { ProfileCipher } from '../crypto/profile-cipher';
import { NotFoundError } from '../core/errors';
import type { Fixture } from '../schemas/fixture';
import type { TableContext } from '../storage/dynamo';
import { readMemberState } from '../storage/member-settings';
import { normalizeModel, type ModelCatalog } from '../core/settings-catalog';
import type { MemberSettingsPatch, PreferenceEntry } from '../schemas/settings';
import { updateMemberSettings } from '../domain/settings/update-member-settings';
import type { EnsureOutcome } from './directory';

export interface SettingsFixtureDeps {
  db: TableContext;
  cipher: ProfileCipher;
  models: ModelCatalog;
}

/**
 * Brings a member's settings to what a fixture says, through the same update as the API
 * (so profiles are encrypted and versioned), writing only what differs: a second load of
 * the same fixture writes nothing. Preferences without an id get one derived from their
 * content, which makes them idempotent too.
 */
export async function ensureMemberSettings(
  deps: SettingsFixtureDeps,
  entry: Fixture['settings'][number],
  now: Date,
): Promise<EnsureOutcome> {
  const target = { orgId: entry.org_id, userId: entry.user_id };
  const preferences = (entry.preferences ?? []).map((p) => ({ ...p, id: p.id ?? derivedPreferenceId(entry, p) }));
  const state = await readMemberState(deps.db, target.orgId, target.userId, {
    withProfile: entry.profile !== undefined,
    preferenceIds: preferences.map((p) => p.id),
  });
  if (!state.membership) throw new NotFoundError('MEMBER_NOT_FOUND', `User ${entry.user_id} is not a member of ${entry.org_id}.`);

  const wantedSettings = entry.settings?.selected_model
    ? { ...entry.settings, selected_model: normalizeModel(entry.settings.selected_model, deps.models) }
    : entry.settings;
  const differs = (wanted: object | undefined, stored: object | undefined) => !containedIn(wanted ?? {}, stored ?? {});
  const patch: MemberSettingsPatch = {};
  if (differs(wantedSettings, state.settings?.settings)) patch.settings = wantedSettings;
  if (differs(entry.notifications, state.settings?.notifications)) patch.notifications = entry.notifications;
  if (entry.profile !== undefined) {
    const stored = state.profile ? await deps.cipher.decrypt(state.profile.ciphertext, target) : '';
    if (stored !== entry.profile) patch.profile = entry.profile;
  }
  const changes: PreferenceEntry[] = preferences.flatMap(({ id, ...fields }): PreferenceEntry[] => {
    const stored = state.preferences.get(id);
    if (!stored) return [{ op: 'create', fixedId: id, ...fields }];
    return differs(fields, stored) ? [{ op: 'update', id, ...fields }] : [];
  });
  if (changes.length) patch.preferences = changes;
  if (Object.keys(patch).length === 0) return 'unchanged';

  await updateMemberSettings({ ...deps, now: () => now }, target, { actor: 'fixture', correlationId: 'fixture', source: 'fixture' }, patch);
  return state.settings ? 'updated' : 'created';
}

/**
 * Whether everything `wanted` says is already so in `stored`: objects compare key by key
 * (stored may hold more, e.g. audit metadata), other values by JSON equality.
 */
function containedIn(wanted: unknown, stored: unknown): boolean {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(wanted)) return isObject(stored) && Object.entries(wanted).every(([name, value]) => containedIn(value, stored[name]));
  return JSON.stringify(wanted) === JSON.stringify(stored);
}

function derivedPreferenceId(
  entry: { org_id: string; user_id: string },
  p: { command: string; command_type: string; preference_content: string },
): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([entry.org_id, entry.user_id, p.command, p.command_type, p.preference_content]))
    .digest('hex');
  return `pref_${digest.slice(0, 20)}`;
}
