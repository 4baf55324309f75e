import * as v from 'valibot';
import { InvalidJsonError, ValidationError } from '../../http/errors';
import { parseInput } from '../../http/validation';
import {
  NotificationsPatch,
  PREFERENCE_ENTRIES_MAX,
  PreferenceCreate,
  PreferenceDelete,
  PreferenceUpdate,
  ProfilePatch,
  SETTINGS_PATCH_SECTIONS,
  SettingsPatch,
  type PreferenceEntry,
} from '../../schemas/settings';
import { READ_ONLY_SETTINGS } from './catalog';

/** An Update member settings body, validated whole. */
export interface MemberSettingsPatch {
  settings?: SettingsPatch;
  notifications?: NotificationsPatch;
  profile?: string;
  preferences?: PreferenceEntry[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates a whole PATCH body before anything is written, with the spec's error codes:
 * INVALID_JSON (not an object), EMPTY_PATCH, INVALID_SETTING (settings, notifications and
 * unknown sections), INVALID_PROFILE, INVALID_PREFERENCES (naming the entry's index).
 */
export function parseSettingsPatch(body: unknown): MemberSettingsPatch {
  if (!isPlainObject(body)) throw new InvalidJsonError('The body must be a JSON object.');
  const unknown = Object.keys(body).filter((key) => !(SETTINGS_PATCH_SECTIONS as readonly string[]).includes(key));
  if (unknown.length) {
    throw new ValidationError(`${unknown.map((key) => `${key}: unknown field`).join('; ')} (sections are ${SETTINGS_PATCH_SECTIONS.join(', ')})`, 'INVALID_SETTING');
  }
  if (!SETTINGS_PATCH_SECTIONS.some((section) => body[section] !== undefined)) {
    throw new ValidationError(`Name at least one of ${SETTINGS_PATCH_SECTIONS.join(', ')}.`, 'EMPTY_PATCH');
  }
  return {
    settings: body.settings === undefined ? undefined : fieldsOf('settings', body.settings, SettingsPatch, READ_ONLY_SETTINGS),
    notifications: body.notifications === undefined ? undefined : fieldsOf('notifications', body.notifications, NotificationsPatch, []),
    profile: body.profile === undefined ? undefined : parseInput(ProfilePatch, body.profile, { code: 'INVALID_PROFILE', at: 'profile', unknownKey: 'field' }).profile,
    preferences: body.preferences === undefined ? undefined : parsePreferences(body.preferences),
  };
}

function fieldsOf<S extends v.GenericSchema>(section: string, value: unknown, schema: S, readOnly: readonly string[]): v.InferOutput<S> {
  const fail = (message: string) => new ValidationError(message, 'INVALID_SETTING');
  if (!isPlainObject(value)) throw fail(`${section}: must be an object`);
  if (Object.keys(value).length === 0) throw fail(`${section}: must name at least one field`);
  const locked = Object.keys(value).filter((key) => readOnly.includes(key));
  if (locked.length) throw fail(locked.map((key) => `${section}.${key}: is read-only`).join('; '));
  return parseInput(schema, value, { code: 'INVALID_SETTING', at: section, unknownKey: 'field' });
}

function parsePreferences(value: unknown): PreferenceEntry[] {
  const fail = (message: string) => new ValidationError(message, 'INVALID_PREFERENCES');
  if (!Array.isArray(value)) throw fail('preferences: must be an array of entries');
  if (value.length === 0) throw fail('preferences: must hold at least one entry');
  if (value.length > PREFERENCE_ENTRIES_MAX) throw fail(`preferences: at most ${PREFERENCE_ENTRIES_MAX} entries per request`);
  const seen = new Map<string, number>();
  return value.map((entry, index): PreferenceEntry => {
    const at = `preferences[${index}]`;
    if (!isPlainObject(entry)) throw fail(`${at}: must be an object`);
    const options = { code: 'INVALID_PREFERENCES', at, unknownKey: 'field' } as const;
    let parsed: PreferenceEntry;
    if ('delete' in entry) {
      if (Object.keys(entry).some((key) => key !== 'id' && key !== 'delete')) throw fail(`${at}: a delete entry holds only id and delete: true`);
      parsed = { op: 'delete', ...parseInput(PreferenceDelete, entry, options) };
    } else if ('id' in entry) {
      parsed = { op: 'update', ...parseInput(PreferenceUpdate, entry, options) };
    } else {
      parsed = { op: 'create', ...parseInput(PreferenceCreate, entry, options) };
    }
    if (parsed.op !== 'create') {
      if (seen.has(parsed.id)) throw fail(`${at}: preference ${parsed.id} is already changed by entry ${seen.get(parsed.id)}`);
      seen.set(parsed.id, index);
    }
    return parsed;
  });
}
