import * as v from 'valibot';
import { CONVERSATION_LANGUAGES, READ_ONLY_SETTINGS, THEMES } from '../domain/settings/catalog';
import type { FieldProblem } from '../http/errors';
import { integerParam } from '../http/validation';
import { Id, isStorableDocument, oneOfByShape } from './common';

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
/**
 * Preference limits, in UTF-16 units (metadata: of its JSON). A bundle page holds up to 200
 * preferences beside a 100,000-character profile, and must fit one Lambda response: the
 * arithmetic is in docs/data-model.md, "Size budgets", and test/unit/size-budgets.test.ts.
 */
export const PREFERENCE_LIMITS = { command: 500, commandType: 100, content: 2_000, metadataJson: 1_000 } as const;
const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));
const Metadata = v.pipe(
  v.record(v.string(), v.unknown(), 'must be an object'),
  v.check((metadata: Record<string, unknown>) => isStorableDocument(metadata), 'must have non-empty keys, and numbers that are 0 or between 1e-130 and 9007199254740991 in size'),
  v.check(
    (metadata) => JSON.stringify(metadata).length <= PREFERENCE_LIMITS.metadataJson,
    `must be at most ${PREFERENCE_LIMITS.metadataJson.toLocaleString('en-US')} characters as JSON`,
  ),
);

export const PreferenceCreate = v.strictObject({
  command: text(PREFERENCE_LIMITS.command),
  command_type: text(PREFERENCE_LIMITS.commandType),
  preference_content: text(PREFERENCE_LIMITS.content),
  source_recording_id: v.optional(v.nullable(Id)),
  source_summarization_id: v.optional(v.nullable(Id)),
  metadata: v.optional(Metadata),
});

export const PreferenceUpdate = v.pipe(
  v.strictObject({
    id: Id,
    command: v.optional(text(PREFERENCE_LIMITS.command)),
    command_type: v.optional(text(PREFERENCE_LIMITS.commandType)),
    preference_content: v.optional(text(PREFERENCE_LIMITS.content)),
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const namesAField = <S extends v.GenericSchema<Record<string, unknown>, Record<string, unknown>>>(schema: S) =>
  v.pipe(schema, v.check((section) => Object.keys(section).length > 0, 'must name at least one field'));

/** The settings section of a PATCH: the writable fields, with the read-only ones named as such. */
const SettingsSection = namesAField(
  v.strictObject({
    ...SettingsPatch.entries,
    ...(Object.fromEntries(READ_ONLY_SETTINGS.map((name) => [name, v.optional(v.never('is read-only'))])) as Record<
      (typeof READ_ONLY_SETTINGS)[number],
      v.OptionalSchema<v.NeverSchema<'is read-only'>, undefined>
    >),
  }),
);

/** A preference entry takes its form from its keys: `delete` deletes, `id` updates, neither creates. */
const PreferenceEntrySchema = oneOfByShape(
  (entry) => (isObject(entry) && 'delete' in entry ? 'delete' : isObject(entry) && 'id' in entry ? 'update' : 'create'),
  {
    create: v.pipe(PreferenceCreate, v.transform((entry): PreferenceEntry => ({ op: 'create', ...entry }))),
    update: v.pipe(PreferenceUpdate, v.transform((entry): PreferenceEntry => ({ op: 'update', ...entry }))),
    delete: v.pipe(PreferenceDelete, v.transform((entry): PreferenceEntry => ({ op: 'delete', ...entry }))),
  },
);

const Preferences = v.pipe(
  v.array(PreferenceEntrySchema, 'must be an array of entries'),
  v.minLength(1, 'must hold at least one entry'),
  v.maxLength(PREFERENCE_ENTRIES_MAX, `must hold at most ${PREFERENCE_ENTRIES_MAX} entries per request`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const firstEntryOf = new Map<string, number>();
    dataset.value.forEach((entry, index) => {
      if (entry.op === 'create') return;
      const first = firstEntryOf.get(entry.id);
      if (first === undefined) return void firstEntryOf.set(entry.id, index);
      const path = [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: entry }] as const;
      addIssue({ message: `is preference ${entry.id}, already changed by preferences[${first}]`, path: [...path] });
    });
  }),
);

/** The body of Update member settings: any of the four sections, at least one. */
export const UpdateMemberSettingsBody = v.pipe(
  v.strictObject({
    settings: v.optional(SettingsSection),
    notifications: v.optional(namesAField(NotificationsPatch)),
    profile: v.optional(ProfilePatch),
    preferences: v.optional(Preferences),
  }),
  v.check((body) => Object.keys(body).length > 0, `name at least one of ${SETTINGS_PATCH_SECTIONS.join(', ')}`),
  v.transform(
    (body): MemberSettingsPatch => ({
      settings: body.settings as SettingsPatch | undefined,
      notifications: body.notifications,
      profile: body.profile?.profile,
      preferences: body.preferences,
    }),
  ),
);

/** An Update member settings body, validated whole, as the domain applies it. */
export interface MemberSettingsPatch {
  settings?: SettingsPatch;
  notifications?: NotificationsPatch;
  profile?: string;
  preferences?: PreferenceEntry[];
}

/** The spec's error code of each section's problems: settings and unknown sections, profile, preferences; none named is EMPTY_PATCH. */
export function settingsPatchErrorCode(problem: FieldProblem): string {
  const section = problem.field.split(/[.[]/)[0];
  if (section === 'profile') return 'INVALID_PROFILE';
  if (section === 'preferences') return 'INVALID_PREFERENCES';
  if (section === '') return problem.issue === 'invalid' ? 'EMPTY_PATCH' : 'INVALID_JSON';
  return 'INVALID_SETTING';
}
