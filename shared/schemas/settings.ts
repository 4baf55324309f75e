import * as v from 'valibot';
import { CONVERSATION_LANGUAGES, DEFAULT_SETTINGS, MAX_SPEAKERS_RANGE, READ_ONLY_SETTINGS, THEMES } from '../core/settings-catalog';
import type { ErrorCode } from '../core/error-codes';
import type { FieldProblem } from '../core/errors';
import { integerParam } from './validation';
import { admitsAtMost, formatCount, Id, INCLUDE_MAX_LENGTH, isStorableDocument, oneOfByShape } from './common';

const booleanFlag = (description: string) =>
  v.pipe(v.optional(v.picklist(['true', 'false'], 'must be true or false')), v.description(description));

/** Query of Get member settings. */
export const GetSettingsQuery = v.strictObject({
  include: v.pipe(
    v.optional(v.pipe(v.string(), v.maxLength(INCLUDE_MAX_LENGTH, `must be at most ${INCLUDE_MAX_LENGTH} characters`))),
    v.description(
      'Comma-separated optional sections to return besides user and settings: profile, preferences, tags, notifications (`include=profile,tags`). Naming any keeps notifications; `none` returns no optional section. Absent: notifications only.',
    ),
  ),
  include_profile: booleanFlag('true adds the profile, false leaves it out, whatever `include` says (default false).'),
  include_preferences: booleanFlag('true adds the preferences, false leaves them out, whatever `include` says (default false).'),
  include_tags: booleanFlag('true adds the tags, false leaves them out, whatever `include` says (default false).'),
  include_notifications: booleanFlag('false leaves out the notifications block, true adds it, whatever `include` says (default true).'),
  preferences_page: integerParam({
    defaultValue: 1,
    min: 1,
    description: 'The page of preferences to return, 1-based, when preferences are included.',
  }),
  preferences_limit: integerParam({
    defaultValue: 50,
    min: 1,
    max: 200,
    description: 'Preferences per page, when preferences are included.',
  }),
});
export type GetSettingsQuery = v.InferOutput<typeof GetSettingsQuery>;

const flag = v.boolean('must be true or false');

/** The writable fields of the settings block; every field optional, others refused. */
const optionalFlag = (description: string) => v.pipe(v.optional(flag), v.description(description));

export const SettingsPatch = v.strictObject({
  conversation_language: v.pipe(
    v.optional(v.picklist(CONVERSATION_LANGUAGES, `must be one of ${CONVERSATION_LANGUAGES.join(', ')}`)),
    v.description('The language conversations are held in, by display name.'),
  ),
  selected_theme: v.pipe(v.optional(v.picklist(THEMES, `must be one of ${THEMES.join(', ')}`)), v.description('The app theme.')),
  selected_model: v.pipe(
    v.optional(
      v.pipe(
        v.string('must be a string'),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(100, 'must be at most 100 characters'),
      ),
    ),
    v.description(
      'The AI model for summaries, 1 to 100 characters: matched against the active models ignoring case, spaces, dashes and underscores; an unknown one is stored as the fallback model.',
    ),
  ),
  auto_transcription: optionalFlag('Transcribe new recordings automatically.'),
  sync_to_cloud: optionalFlag('Sync recordings to the cloud.'),
  auto_add_tasks_from_summaries: optionalFlag('Turn the action items of summaries into tasks.'),
  auto_route_enabled: optionalFlag('Route recordings automatically.'),
  calendar_matching: optionalFlag('Match recordings with calendar events.'),
  find_service_enabled: optionalFlag('Turn the find service on.'),
  max_speakers: v.pipe(
    v.optional(
      v.pipe(
        v.number('must be a whole number'),
        v.integer('must be a whole number'),
        v.minValue(MAX_SPEAKERS_RANGE.min, `must be at least ${MAX_SPEAKERS_RANGE.min}`),
        v.maxValue(MAX_SPEAKERS_RANGE.max, `must be at most ${MAX_SPEAKERS_RANGE.max}`),
      ),
    ),
    v.description(
      `How many speakers transcriptions of this member's recordings tell apart, ${MAX_SPEAKERS_RANGE.min} to ${MAX_SPEAKERS_RANGE.max} (default ${DEFAULT_SETTINGS.max_speakers}): Amazon Transcribe's MaxSpeakerLabels, and the local engine's limit.`,
    ),
  ),
});
export type SettingsPatch = v.InferOutput<typeof SettingsPatch>;

/** The notifications block; every field writable. */
export const NotificationsPatch = v.strictObject({
  highlight_time: v.pipe(
    v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM between 00:00 and 23:59'),
        admitsAtMost('HH:MM'.length),
      ),
    ),
    v.description("When the daily highlight arrives: HH:MM, 24-hour, 00:00 to 23:59, in the member's time zone."),
  ),
  processing_notifications_enabled: optionalFlag('Notify when a recording has been processed.'),
  sync_nudges_enabled: optionalFlag('Nudge to sync recordings.'),
  morning_welcome_notifications_enabled: optionalFlag('Send the morning welcome.'),
  reminder_notifications_enabled: optionalFlag('Send reminders.'),
});
export type NotificationsPatch = v.InferOutput<typeof NotificationsPatch>;

export const PROFILE_MAX_CHARACTERS = 100_000;

export const ProfilePatch = v.strictObject({
  profile: v.pipe(
    v.string('must be a string'),
    // Characters are Unicode code points, not UTF-16 units: an emoji counts once.
    v.check((text) => [...text].length <= PROFILE_MAX_CHARACTERS, `must be at most ${formatCount(PROFILE_MAX_CHARACTERS)} characters`),
    // JSON Schema counts code points as the check does; valibot's maxLength would count UTF-16 units.
    admitsAtMost(PROFILE_MAX_CHARACTERS),
    v.description(
      `The new profile, markdown, at most ${formatCount(PROFILE_MAX_CHARACTERS)} characters (code points): replaces the whole profile, stored encrypted; its version goes up by one.`,
    ),
  ),
});

export const PREFERENCE_ENTRIES_MAX = 50;
/**
 * Preference limits, in UTF-16 units (metadata: of its JSON). A bundle page holds up to 200
 * preferences beside a 100,000-character profile, and must fit one Lambda response: the
 * arithmetic is in docs/data-model.md, "Size budgets", and test/unit/size-budgets.test.ts.
 */
export const PREFERENCE_LIMITS = { command: 500, commandType: 100, content: 2_000, metadataJson: 1_000 } as const;
/** Whether a preference's own metadata (without the audit fields the API merges in) is within its limit, as JSON. */
export const metadataWithinLimit = (metadata: Record<string, unknown>) => JSON.stringify(metadata).length <= PREFERENCE_LIMITS.metadataJson;
const text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );
const Metadata = v.pipe(
  // No key is longer than the whole JSON may be: the size check below bounds the keys too.
  v.record(v.pipe(v.string(), admitsAtMost(PREFERENCE_LIMITS.metadataJson)), v.unknown(), 'must be an object'),
  v.check(
    (metadata: Record<string, unknown>) => isStorableDocument(metadata),
    'must have non-empty keys, and numbers that are 0 or between 1e-130 and 9007199254740991 in size',
  ),
  v.check(metadataWithinLimit, `must be at most ${formatCount(PREFERENCE_LIMITS.metadataJson)} characters as JSON`),
);

const PREFERENCE_TEXT = {
  command: `The instruction the member gave, 1 to ${PREFERENCE_LIMITS.command} characters (trimmed).`,
  commandType: `Where the preference comes from, such as \`summary_enhance\` or \`manual\`: 1 to ${PREFERENCE_LIMITS.commandType} characters.`,
  content: `The preference as it is applied to summaries, 1 to ${formatCount(PREFERENCE_LIMITS.content)} characters.`,
  metadata: `Free-form JSON object, at most ${formatCount(PREFERENCE_LIMITS.metadataJson)} characters as JSON; the API merges in its audit fields (source, actor, correlation id).`,
};
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

export const PreferenceCreate = v.strictObject({
  command: described(text(PREFERENCE_LIMITS.command), PREFERENCE_TEXT.command),
  command_type: described(text(PREFERENCE_LIMITS.commandType), PREFERENCE_TEXT.commandType),
  preference_content: described(text(PREFERENCE_LIMITS.content), PREFERENCE_TEXT.content),
  source_recording_id: described(v.optional(v.nullable(Id)), 'The recording it was learned from, if any.'),
  source_summarization_id: described(v.optional(v.nullable(Id)), 'The summary it was learned from, if any.'),
  metadata: described(v.optional(Metadata), PREFERENCE_TEXT.metadata),
});

export const PreferenceUpdate = v.pipe(
  v.strictObject({
    id: described(Id, "The preference to update: one of the member's."),
    command: described(v.optional(text(PREFERENCE_LIMITS.command)), PREFERENCE_TEXT.command),
    command_type: described(v.optional(text(PREFERENCE_LIMITS.commandType)), PREFERENCE_TEXT.commandType),
    preference_content: described(v.optional(text(PREFERENCE_LIMITS.content)), PREFERENCE_TEXT.content),
    metadata: described(
      v.optional(Metadata),
      `${PREFERENCE_TEXT.metadata} Merged into the stored metadata, whose own fields (the audit fields left out) must then still be at most ${formatCount(PREFERENCE_LIMITS.metadataJson)} characters as JSON.`,
    ),
  }),
  v.check((entry) => Object.keys(entry).length > 1, 'an update names at least one field to change besides id'),
);

export const PreferenceDelete = v.strictObject({
  id: described(Id, "The preference to delete: one of the member's."),
  delete: described(v.literal(true, 'must be true'), 'Always true: deletes the preference.'),
});

export type PreferenceCreate = v.InferOutput<typeof PreferenceCreate>;
export type PreferenceUpdate = v.InferOutput<typeof PreferenceUpdate>;
export type PreferenceDelete = v.InferOutput<typeof PreferenceDelete>;
export type PreferenceEntry =
  /** `fixedId` is for fixtures only (stable ids make re-seeding idempotent); the API never sets it. */
  ({ op: 'create'; fixedId?: string } & PreferenceCreate) | ({ op: 'update' } & PreferenceUpdate) | ({ op: 'delete' } & PreferenceDelete);

/** The sections of an Update member settings body. */
export const SETTINGS_PATCH_SECTIONS = ['settings', 'notifications', 'profile', 'preferences'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const namesAField = <S extends v.GenericSchema<Record<string, unknown>, Record<string, unknown>>>(schema: S) =>
  v.pipe(
    schema,
    v.check((section) => Object.keys(section).length > 0, 'must name at least one field'),
  );

const readOnlySetting = v.pipe(v.optional(v.never('is read-only')), v.description('Read-only: shown in the bundle, refused here.'));

/** The settings section of a PATCH: the writable fields, with the read-only ones named as such. */
const SettingsSection = namesAField(
  v.strictObject({
    ...SettingsPatch.entries,
    ...(Object.fromEntries(READ_ONLY_SETTINGS.map((name) => [name, readOnlySetting])) as Record<
      (typeof READ_ONLY_SETTINGS)[number],
      typeof readOnlySetting
    >),
  }),
);

/** A preference entry takes its form from its keys: `delete` deletes, `id` updates, neither creates. */
const PreferenceEntrySchema = oneOfByShape(
  (entry) => (isObject(entry) && 'delete' in entry ? 'delete' : isObject(entry) && 'id' in entry ? 'update' : 'create'),
  {
    create: v.pipe(
      PreferenceCreate,
      v.transform((entry): PreferenceEntry => ({ op: 'create', ...entry })),
    ),
    update: v.pipe(
      PreferenceUpdate,
      v.transform((entry): PreferenceEntry => ({ op: 'update', ...entry })),
    ),
    delete: v.pipe(
      PreferenceDelete,
      v.transform((entry): PreferenceEntry => ({ op: 'delete', ...entry })),
    ),
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
    settings: described(
      v.optional(SettingsSection),
      'Settings fields to change (at least one), merged into the stored block; monthly_transcription_minutes, created_at and updated_at are read-only. Problems: 400 INVALID_SETTING.',
    ),
    notifications: described(
      v.optional(namesAField(NotificationsPatch)),
      'Notification fields to change (at least one), merged into the stored block. Problems: 400 INVALID_SETTING.',
    ),
    profile: described(v.optional(ProfilePatch), 'The new profile: `{"profile": "…"}`. Problems: 400 INVALID_PROFILE.'),
    preferences: described(
      v.optional(Preferences),
      `1 to ${PREFERENCE_ENTRIES_MAX} preference changes, applied in order: an entry without id creates, one with id updates the fields it names, one with id and \`delete: true\` deletes; a preference is named at most once. Problems: 400 INVALID_PREFERENCES.`,
    ),
  }),
  v.check((body) => Object.keys(body).length > 0, `name at least one of ${SETTINGS_PATCH_SECTIONS.join(', ')}`),
  v.transform((body): MemberSettingsPatch => ({
    settings: body.settings,
    notifications: body.notifications,
    profile: body.profile?.profile,
    preferences: body.preferences,
  })),
);

/** An Update member settings body, validated whole, as the domain applies it. */
export interface MemberSettingsPatch {
  settings?: SettingsPatch;
  notifications?: NotificationsPatch;
  profile?: string;
  preferences?: PreferenceEntry[];
}

/** The spec's error code of each section's problems: settings and unknown sections, profile, preferences; none named is EMPTY_PATCH. */
export function settingsPatchErrorCode(problem: FieldProblem): ErrorCode {
  const section = problem.field.split(/[.[]/)[0];
  if (section === 'profile') return 'INVALID_PROFILE';
  if (section === 'preferences') return 'INVALID_PREFERENCES';
  if (section === '') return problem.issue === 'invalid' ? 'EMPTY_PATCH' : 'INVALID_JSON';
  return 'INVALID_SETTING';
}
