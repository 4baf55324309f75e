import * as v from 'valibot';
import { createdAt, described, envelope, NullableString, PagePagination, updatedAt } from './envelopes';

/**
 * A member's settings bundle (Get member settings) and what a settings patch applied (Update member
 * settings), for the OpenAPI document and the contract check.
 */
const Tag = v.strictObject({
  id: described(v.string(), "The tag's id."),
  name: described(v.string(), "The tag's name."),
  color: described(v.string(), 'Its colour, as a hex colour such as `#1f77b4`.'),
  created_at: createdAt('tag'),
  updated_at: updatedAt('tag'),
});
const Preference = v.strictObject({
  id: described(v.string(), "The preference's id: name it to update or delete the preference."),
  command: described(v.string(), 'The instruction the member gave, such as `Always list action items first`.'),
  command_type: described(v.string(), 'Where the preference comes from, such as `summary_enhance` or `manual`.'),
  preference_content: described(v.string(), 'The preference as it is applied to summaries.'),
  source_recording_id: described(v.optional(NullableString), 'The recording it was learned from, if any.'),
  source_summarization_id: described(v.optional(NullableString), 'The summary it was learned from, if any.'),
  metadata: described(
    v.optional(v.record(v.string(), v.unknown())),
    'Free-form JSON; a change through this API adds its audit fields: `source` (`org_admin_api`), the acting user or API key and the correlation id.',
  ),
  created_at: createdAt('preference'),
  updated_at: updatedAt('preference'),
});

export const SettingsBundle = v.strictObject({
  user: described(
    v.strictObject({
      user_id: described(v.string(), "The member's user id."),
      email: described(v.string(), "The member's email."),
      display_name: described(v.string(), "The member's name as shown."),
      role: described(v.string(), "The member's role: owner, admin, member or viewer."),
      status: described(v.string(), 'The membership status: `active` (only active members are read).'),
      timezone: described(v.string(), 'The IANA time zone, such as `Europe/Paris`.'),
    }),
    'Who the settings belong to.',
  ),
  settings: described(
    v.strictObject({
      conversation_language: described(v.string(), 'The language conversations are held in, by display name (`English`, `French`, …).'),
      selected_theme: described(v.string(), 'The app theme: `system`, `light` or `dark`.'),
      selected_model: described(
        v.string(),
        'The AI model for summaries: one of the active models (an unknown name was replaced by the fallback model).',
      ),
      auto_transcription: described(v.boolean(), 'Whether new recordings are transcribed automatically.'),
      sync_to_cloud: described(v.boolean(), 'Whether recordings sync to the cloud.'),
      auto_add_tasks_from_summaries: described(v.boolean(), 'Whether action items of summaries become tasks.'),
      auto_route_enabled: described(v.boolean(), 'Whether recordings are routed automatically.'),
      calendar_matching: described(v.boolean(), 'Whether recordings are matched with calendar events.'),
      find_service_enabled: described(v.boolean(), 'Whether the find service is on.'),
      max_speakers: described(v.number(), 'How many speakers transcriptions tell apart, 2 to 30 (default 10).'),
      monthly_transcription_minutes: described(v.number(), 'Minutes transcribed this month (read-only).'),
      created_at: createdAt('settings block'),
      updated_at: updatedAt('settings block'),
    }),
    'The settings block (always present; defaults for a member who never saved any).',
  ),
  notifications: described(
    v.optional(
      v.strictObject({
        highlight_time: described(v.string(), "When the daily highlight arrives, HH:MM (24-hour) in the member's time zone."),
        processing_notifications_enabled: described(v.boolean(), 'Notify when a recording has been processed.'),
        sync_nudges_enabled: described(v.boolean(), 'Nudge to sync recordings.'),
        morning_welcome_notifications_enabled: described(v.boolean(), 'Send the morning welcome.'),
        reminder_notifications_enabled: described(v.boolean(), 'Send reminders.'),
      }),
    ),
    'The notifications block: present unless `include_notifications=false` or `include=none`.',
  ),
  profile: described(
    v.optional(
      v.strictObject({
        profile: described(v.string(), 'The free-text profile, markdown (stored encrypted; decrypted here).'),
        version: described(v.number(), 'Starts at 0; each profile update adds 1.'),
      }),
    ),
    'The profile: only when asked for (`include=profile` or `include_profile=true`).',
  ),
  preferences: described(
    v.optional(
      v.strictObject({
        data: described(v.array(Preference), "This page of the member's learned summarization preferences."),
        pagination: described(PagePagination, 'Where this page is (`preferences_page`, `preferences_limit`).'),
      }),
    ),
    'The preferences: only when asked for (`include=preferences` or `include_preferences=true`).',
  ),
  tags: described(v.optional(v.array(Tag)), "The member's tags: only when asked for (`include=tags` or `include_tags=true`)."),
});
export const SettingsBundleResponse = envelope(
  described(SettingsBundle, "The member's settings bundle: the sections always sent and those asked for."),
);

export const SettingsPatchResponse = v.strictObject({
  success: described(v.literal(true), 'Always true: every section given was applied, in one transaction.'),
  applied: described(
    v.strictObject({
      settings: described(v.boolean(), 'Whether the settings section was applied.'),
      notifications: described(v.boolean(), 'Whether the notifications section was applied.'),
      profile: described(v.boolean(), 'Whether the profile was replaced.'),
      preferences_created: described(v.number(), 'Preferences created.'),
      preferences_updated: described(v.number(), 'Preferences updated.'),
      preferences_deleted: described(v.number(), 'Preferences deleted.'),
    }),
    'What the request changed, by section.',
  ),
  profile_version: described(v.number(), "The profile's version after the request (one more than before when the profile was given)."),
});
