import * as v from 'valibot';
import { CONVERSATION_LANGUAGES, THEMES } from '../domain/settings/catalog';
import { integerParam } from '../http/validation';
import { Id } from './common';

const booleanFlag = v.optional(v.picklist(['true', 'false'], 'must be true or false'));

/** Query of Get member settings. */
export const GetSettingsQuery = v.strictObject({
  include: v.optional(v.string()),
  include_profile: booleanFlag,
  include_preferences: booleanFlag,
  include_tags: booleanFlag,
  include_notifications: booleanFlag,
  preferences_page: integerParam({ defaultValue: 1, min: 1 }),
  preferences_limit: integerParam({ defaultValue: 50, min: 1, max: 200 }),
});
export type GetSettingsQuery = v.InferOutput<typeof GetSettingsQuery>;

const flag = v.boolean('must be true or false');

/** The writable fields of the settings block; every field optional, others refused. */
export const SettingsPatch = v.strictObject({
  conversation_language: v.optional(v.picklist(CONVERSATION_LANGUAGES, `must be one of ${CONVERSATION_LANGUAGES.join(', ')}`)),
  selected_theme: v.optional(v.picklist(THEMES, `must be one of ${THEMES.join(', ')}`)),
  selected_model: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))),
  auto_transcription: v.optional(flag),
  sync_to_cloud: v.optional(flag),
  auto_add_tasks_from_summaries: v.optional(flag),
  auto_route_enabled: v.optional(flag),
  calendar_matching: v.optional(flag),
  find_service_enabled: v.optional(flag),
});
export type SettingsPatch = v.InferOutput<typeof SettingsPatch>;

/** The notifications block; every field writable. */
export const NotificationsPatch = v.strictObject({
  highlight_time: v.optional(v.pipe(v.string('must be a string'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM between 00:00 and 23:59'))),
  processing_notifications_enabled: v.optional(flag),
  sync_nudges_enabled: v.optional(flag),
  morning_welcome_notifications_enabled: v.optional(flag),
  reminder_notifications_enabled: v.optional(flag),
});
export type NotificationsPatch = v.InferOutput<typeof NotificationsPatch>;

export const PROFILE_MAX_CHARACTERS = 100_000;

export const ProfilePatch = v.strictObject({
  profile: v.pipe(
    v.string('must be a string'),
    // Characters are Unicode code points, not UTF-16 units: an emoji counts once.
    v.check((text) => [...text].length <= PROFILE_MAX_CHARACTERS, `must be at most ${PROFILE_MAX_CHARACTERS.toLocaleString('en-US')} characters`),
  ),
});

export const PREFERENCE_ENTRIES_MAX = 50;
const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));
const Metadata = v.pipe(
  v.record(v.string(), v.unknown(), 'must be an object'),
  v.check((metadata) => JSON.stringify(metadata).length <= 4_000, 'must be at most 4,000 characters as JSON'),
);

export const PreferenceCreate = v.strictObject({
  command: text(500),
  command_type: text(100),
  preference_content: text(10_000),
  source_recording_id: v.optional(v.nullable(Id)),
  source_summarization_id: v.optional(v.nullable(Id)),
  metadata: v.optional(Metadata),
});

export const PreferenceUpdate = v.pipe(
  v.strictObject({
    id: Id,
    command: v.optional(text(500)),
    command_type: v.optional(text(100)),
    preference_content: v.optional(text(10_000)),
    metadata: v.optional(Metadata),
  }),
  v.check((entry) => Object.keys(entry).length > 1, 'an update names at least one field to change besides id'),
);

export const PreferenceDelete = v.strictObject({ id: Id, delete: v.literal(true, 'must be true') });

export type PreferenceCreate = v.InferOutput<typeof PreferenceCreate>;
export type PreferenceUpdate = v.InferOutput<typeof PreferenceUpdate>;
export type PreferenceDelete = v.InferOutput<typeof PreferenceDelete>;
export type PreferenceEntry =
  /** `fixedId` is for fixtures only (stable ids make re-seeding idempotent); the API never sets it. */
  | ({ op: 'create'; fixedId?: string } & PreferenceCreate)
  | ({ op: 'update' } & PreferenceUpdate)
  | ({ op: 'delete' } & PreferenceDelete);

/** The sections of an Update member settings body. */
export const SETTINGS_PATCH_SECTIONS = ['settings', 'notifications', 'profile', 'preferences'] as const;
