import * as v from 'valibot';
import { PROBLEM_KINDS } from '../http/errors';
import { RECORDING_STATES } from '../storage/recording-items';
import { InviteEmailDeliveryFields } from './invites';
import { Member } from './members';

/**
 * The shapes of the API's responses, for the OpenAPI document and the contract check of
 * the integration tests. Derived from the views in shared/domain and the handlers in
 * functions/. Only the OpenAPI generator imports this module (no handler bundle carries it).
 */

const NullableString = v.nullable(v.string());

/** A schema with what it means, for the OpenAPI document. */
const d = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
const TIMESTAMP = 'ISO 8601 UTC, with milliseconds.';
const createdAt = (what: string) => d(v.string(), `When the ${what} was created (${TIMESTAMP})`);
const updatedAt = (what: string) => d(v.string(), `When the ${what} last changed (${TIMESTAMP})`);

/** `{success: false, data: null, error: CODE, message}`: every refusal, gateway ones included. */
export const ErrorEnvelope = d(
  v.strictObject({
    success: d(v.literal(false), 'Always false on a refusal.'),
    data: d(v.null(), 'Always null on a refusal.'),
    error: d(v.string(), "The error code (UPPER_SNAKE_CASE), stable for programs to branch on: each operation lists the codes of each of its refusal statuses."),
    message: d(v.string(), 'What went wrong, in English, for people; its wording may change.'),
    /** 400s only: each offending field (query or path parameter, or body path such as sections[2].title) and what is wrong with it. */
    details: d(
      v.optional(
        v.array(
          v.strictObject({
            field: d(v.string(), 'The query or path parameter, header, or body path (`sections[2].title`) at fault; empty for the body as a whole.'),
            issue: d(v.picklist(PROBLEM_KINDS), 'The kind of problem, for programs.'),
            message: d(v.string(), 'The problem in words, such as `must be at most 200 characters`.'),
          }),
        ),
      ),
      'On a 400 only: one entry per offending field.',
    ),
  }),
  'A refused request: the same envelope on every refusal of the API and of API Gateway in front of it.',
);

/** `{success: true}`. */
export const SuccessOnly = v.strictObject({ success: d(v.literal(true), 'Always true: the operation was done.') });

export const PagePagination = v.strictObject({
  page: d(v.number(), 'This page, 1-based.'),
  limit: d(v.number(), 'The page size asked for (or its default).'),
  total: d(v.number(), 'Items across all pages.'),
  total_pages: d(v.number(), 'Pages of `limit` items; 0 when there is no item.'),
  has_more: d(v.boolean(), 'Whether a page follows this one.'),
});

const envelope = <T extends v.GenericSchema>(data: T) => v.strictObject({ success: d(v.literal(true), 'Always true on success.'), data });
const pagedEnvelope = <T extends v.GenericSchema>(data: T) =>
  v.strictObject({ success: d(v.literal(true), 'Always true on success.'), data, pagination: d(PagePagination, 'Where this page is in the list.') });

export const HealthResponse = v.strictObject({ status: d(v.literal('ok'), 'Always `ok`: the API answers.') });

export const MemberListResponse = pagedEnvelope(d(v.array(v.strictObject(Member.entries)), 'The active members on this page, by email ascending.'));

const Tag = v.strictObject({
  id: d(v.string(), "The tag's id."),
  name: d(v.string(), "The tag's name."),
  color: d(v.string(), 'Its colour, as a hex colour such as `#1f77b4`.'),
  created_at: createdAt('tag'),
  updated_at: updatedAt('tag'),
});
const Preference = v.strictObject({
  id: d(v.string(), "The preference's id: name it to update or delete the preference."),
  command: d(v.string(), 'The instruction the member gave, such as `Always list action items first`.'),
  command_type: d(v.string(), 'Where the preference comes from, such as `summary_enhance` or `manual`.'),
  preference_content: d(v.string(), 'The preference as it is applied to summaries.'),
  source_recording_id: d(v.optional(NullableString), 'The recording it was learned from, if any.'),
  source_summarization_id: d(v.optional(NullableString), 'The summary it was learned from, if any.'),
  metadata: d(
    v.optional(v.record(v.string(), v.unknown())),
    'Free-form JSON; a change through this API adds its audit fields: `source` (`org_admin_api`), the acting user or API key and the correlation id.',
  ),
  created_at: createdAt('preference'),
  updated_at: updatedAt('preference'),
});

export const SettingsBundle = v.strictObject({
  user: d(
    v.strictObject({
      user_id: d(v.string(), "The member's user id."),
      email: d(v.string(), "The member's email."),
      display_name: d(v.string(), "The member's name as shown."),
      role: d(v.string(), "The member's role: owner, admin, member or viewer."),
      status: d(v.string(), 'The membership status: `active` (only active members are read).'),
      timezone: d(v.string(), 'The IANA time zone, such as `Europe/Paris`.'),
    }),
    'Who the settings belong to.',
  ),
  settings: d(
    v.strictObject({
      conversation_language: d(v.string(), 'The language conversations are held in, by display name (`English`, `French`, …).'),
      selected_theme: d(v.string(), 'The app theme: `system`, `light` or `dark`.'),
      selected_model: d(v.string(), 'The AI model for summaries: one of the active models (an unknown name was replaced by the fallback model).'),
      auto_transcription: d(v.boolean(), 'Whether new recordings are transcribed automatically.'),
      sync_to_cloud: d(v.boolean(), 'Whether recordings sync to the cloud.'),
      auto_add_tasks_from_summaries: d(v.boolean(), "Whether action items of summaries become tasks."),
      auto_route_enabled: d(v.boolean(), 'Whether recordings are routed automatically.'),
      calendar_matching: d(v.boolean(), 'Whether recordings are matched with calendar events.'),
      find_service_enabled: d(v.boolean(), 'Whether the find service is on.'),
      monthly_transcription_minutes: d(v.number(), 'Minutes transcribed this month (read-only).'),
      created_at: createdAt('settings block'),
      updated_at: updatedAt('settings block'),
    }),
    'The settings block (always present; defaults for a member who never saved any).',
  ),
  notifications: d(
    v.optional(
      v.strictObject({
        highlight_time: d(v.string(), 'When the daily highlight arrives, HH:MM (24-hour) in the member\'s time zone.'),
        processing_notifications_enabled: d(v.boolean(), 'Notify when a recording has been processed.'),
        sync_nudges_enabled: d(v.boolean(), 'Nudge to sync recordings.'),
        morning_welcome_notifications_enabled: d(v.boolean(), 'Send the morning welcome.'),
        reminder_notifications_enabled: d(v.boolean(), 'Send reminders.'),
      }),
    ),
    'The notifications block: present unless `include_notifications=false` or `include=none`.',
  ),
  profile: d(
    v.optional(
      v.strictObject({
        profile: d(v.string(), 'The free-text profile, markdown (stored encrypted; decrypted here).'),
        version: d(v.number(), 'Starts at 0; each profile update adds 1.'),
      }),
    ),
    'The profile: only when asked for (`include=profile` or `include_profile=true`).',
  ),
  preferences: d(
    v.optional(
      v.strictObject({
        data: d(v.array(Preference), "This page of the member's learned summarization preferences."),
        pagination: d(PagePagination, 'Where this page is (`preferences_page`, `preferences_limit`).'),
      }),
    ),
    'The preferences: only when asked for (`include=preferences` or `include_preferences=true`).',
  ),
  tags: d(v.optional(v.array(Tag)), "The member's tags: only when asked for (`include=tags` or `include_tags=true`)."),
});
export const SettingsBundleResponse = envelope(d(SettingsBundle, "The member's settings bundle: the sections always sent and those asked for."));

export const SettingsPatchResponse = v.strictObject({
  success: d(v.literal(true), 'Always true: every section given was applied, in one transaction.'),
  applied: d(
    v.strictObject({
      settings: d(v.boolean(), 'Whether the settings section was applied.'),
      notifications: d(v.boolean(), 'Whether the notifications section was applied.'),
      profile: d(v.boolean(), 'Whether the profile was replaced.'),
      preferences_created: d(v.number(), 'Preferences created.'),
      preferences_updated: d(v.number(), 'Preferences updated.'),
      preferences_deleted: d(v.number(), 'Preferences deleted.'),
    }),
    'What the request changed, by section.',
  ),
  profile_version: d(v.number(), "The profile's version after the request (one more than before when the profile was given)."),
});

const recordingFields = {
  id: d(v.string(), "The recording's id."),
  title: d(v.string(), 'Its title.'),
  description: d(v.string(), 'Its description (may be empty).'),
  duration: d(v.number(), 'Its length in seconds.'),
  language: d(v.string(), 'Its language, as a language tag such as `en` or `pt-BR`.'),
  recorded_by: d(v.string(), 'The user id of the member who recorded it.'),
  tags: d(v.array(v.string()), 'The ids of its tags.'),
  created_at: createdAt('recording'),
  updated_at: updatedAt('recording'),
};

export const RecordingListItem = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  duration: recordingFields.duration,
  language: recordingFields.language,
  recorded_by: recordingFields.recorded_by,
  tags: recordingFields.tags,
  created_at: recordingFields.created_at,
  deleted_at: d(v.optional(v.string()), `When it was moved to the trash (${TIMESTAMP}); only on trash items.`),
  purge_at: d(
    v.optional(NullableString),
    `When its trash timer runs out and it is deleted for good (${TIMESTAMP}): TRASH_RETENTION_DAYS after deleted_at, or a day after the operator gave a timer to a recording trashed without one, if later; DynamoDB's TTL acts shortly after (in AWS, within a few days at most). Only on trash items; null while it has no timer (trashed before the service kept them, until the operator runs \`voice-org reindex\`).`,
  ),
});

export const RecordingListResponse = v.strictObject({
  recordings: d(v.array(RecordingListItem), 'This page of recordings, newest first.'),
  pagination: d(
    v.strictObject({
      page: d(v.number(), 'This page, 1-based.'),
      limit: d(v.number(), 'The page size asked for (or its default).'),
      total: d(v.number(), 'Recordings matching the filters, across all pages.'),
      next_cursor: d(NullableString, 'Pass it as `cursor` for the next page (faster than `page` deep in a list); null on the last page.'),
    }),
    'Where this page is in the list.',
  ),
});

const TranscriptSegment = v.strictObject({
  speaker: d(v.string(), 'Who speaks, as the transcription named them.'),
  text: d(v.string(), 'What they said.'),
  start: d(v.number(), 'Start, in seconds from the beginning of the recording.'),
  end: d(v.number(), 'End, in seconds from the beginning of the recording.'),
});
const ActionItem = v.strictObject({
  id: d(v.string(), "The action item's id."),
  text: d(v.string(), 'What is to be done.'),
  assignee: d(NullableString, 'Who is to do it, if named.'),
  due_date: d(NullableString, 'When it is due, if stated.'),
  completed: d(v.boolean(), 'Whether it is done.'),
});
const Translation = v.strictObject({
  id: d(v.string(), "The translation's id."),
  created_at: createdAt('translation'),
  updated_at: updatedAt('translation'),
  detected_language: d(v.string(), 'The language detected in the recording.'),
  to_language: d(v.string(), 'The language translated into.'),
  processing_status: d(v.string(), 'Where the translation is, such as `completed` or `failed`.'),
  error_message: d(v.string(), 'Why it failed; empty when it did not.'),
});

const summaryFields = {
  markdown: d(v.string(), 'The summary, markdown.'),
  template_id: d(NullableString, 'The template it was made with; null for the default summary.'),
  template_name: d(NullableString, "That template's name when the summary was made (kept if the template is deleted)."),
  created_at: d(v.optional(v.string()), `When the summary was made (${TIMESTAMP})`),
  updated_at: d(v.optional(v.string()), `When the summary last changed (${TIMESTAMP})`),
};
const Summary = v.strictObject(summaryFields);

/**
 * A recording's `state`: pending_upload → uploaded → processing → ready, or failed (an upload
 * that is not the declared size or type, or failed processing).
 */
const RecordingStateField = d(
  v.picklist(RECORDING_STATES),
  'Where the recording is: `pending_upload` until its file lands, then `uploaded`, `processing`, `ready`; `failed` when the upload was not the declared size or type, or processing failed.',
);

export const RecordingResponse = v.strictObject({
  ...recordingFields,
  folder_id: d(v.optional(NullableString), 'The folder it is in; null when in none.'),
  state: RecordingStateField,
  /** Why the upload failed (state `failed`), e.g. `size_mismatch: declared 5 bytes, received 20`; `""` when it did not. */
  upload_error: d(v.string(), 'Why the upload failed (state `failed`), such as `size_mismatch: declared 5 bytes, received 20`; empty when it did not.'),
  recording_at: d(v.optional(NullableString), `When it was recorded (${TIMESTAMP}), if known.`),
  transcript: d(v.optional(v.nullable(v.array(TranscriptSegment))), 'With `include=transcript`: the transcript as timed segments; null when it has none.'),
  summary: d(v.optional(v.nullable(Summary)), 'With `include=summary`: the AI summary; null when it has none.'),
  action_items: d(v.optional(v.nullable(v.array(ActionItem))), 'With `include=action_items`: the action items found; null when it has none.'),
  translation: d(v.optional(v.nullable(Translation)), 'With `include=translation`: its translation; null when it has none.'),
});

export const RecordingUpdateResponse = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  description: recordingFields.description,
  duration: recordingFields.duration,
  tags: recordingFields.tags,
  updated_at: recordingFields.updated_at,
});

export const PublicRecording = v.strictObject({
  id: recordingFields.id,
  title: recordingFields.title,
  created_at: recordingFields.created_at,
  updated_at: recordingFields.updated_at,
  recording_at: d(v.optional(NullableString), `When it was recorded (${TIMESTAMP}), if known.`),
  duration: recordingFields.duration,
  language: recordingFields.language,
  folder_id: d(v.string(), 'The folder it is in; empty when in none.'),
  state: RecordingStateField,
  recorded_by: d(
    v.strictObject({
      display_name: d(v.string(), "The recorder's name as shown."),
      email: d(v.string(), "The recorder's email."),
      user_id: d(v.string(), "The recorder's user id."),
    }),
    'The member who recorded it.',
  ),
  tags: d(
    v.array(v.strictObject({ id: d(v.string(), "The tag's id."), name: d(v.string(), "The tag's name."), color: d(v.string(), 'Its colour, as a hex colour such as `#1f77b4`.') })),
    'Its tags.',
  ),
  summarizations: d(v.nullable(v.array(v.strictObject({ id: d(v.string(), "The summary's id."), ...summaryFields }))), 'Its AI summaries; null when it has none.'),
  summarizations_errors: d(v.array(v.unknown()), 'Why summarizing failed, when it did; empty otherwise.'),
  transcript: d(
    v.nullable(
      v.strictObject({
        id: d(v.string(), "The transcript's id."),
        language: d(v.string(), 'The language transcribed.'),
        segment_count: d(v.number(), 'How many timed segments it has (read them with Get recording, `include=transcript`).'),
        created_at: createdAt('transcript'),
        updated_at: updatedAt('transcript'),
      }),
    ),
    'Its transcript, summed up; null when it has none.',
  ),
  transcript_error: d(v.string(), 'Why transcription failed; empty when it did not.'),
  translation: d(v.nullable(Translation), 'Its translation; null when it has none.'),
  translation_error: d(v.string(), 'Why translation failed; empty when it did not.'),
  upload_error: d(v.string(), 'Why the upload failed (state `failed`); empty when it did not.'),
});
export const PublicRecordingListResponse = pagedEnvelope(d(v.array(PublicRecording), 'This page of recordings, newest first.'));

export const UploadUrlResponse = envelope(
  d(
    v.strictObject({
      recording_id: d(v.string(), 'The new recording, in state `pending_upload` until its file lands.'),
      upload_url: d(v.string(), 'A pre-signed S3 URL: PUT the file there, once, before `expires_at`.'),
      method: d(v.literal('PUT'), 'The HTTP method of the upload: always PUT.'),
      /** The headers the PUT must send exactly: both are signed into the URL. */
      headers: d(
        v.strictObject({
          'content-type': d(v.string(), 'The declared `content_type`.'),
          'content-length': d(v.string(), 'The declared `size_bytes`.'),
        }),
        'The headers the PUT must send exactly: both are signed into the URL.',
      ),
      expires_at: d(v.string(), `When the URL stops working (${TIMESTAMP}; UPLOAD_URL_TTL_SECONDS after issue, 15 minutes by default).`),
    }),
    'The recording created and where to upload its file.',
  ),
);

/** A pre-signed GET of a recording's file (Get recording media): the org route answers it bare, the public route in the envelope. */
export const RecordingMedia = v.strictObject({
  /** GET it (Range requests too) until expires_at; S3 answers with content_type and a Content-Disposition naming the original file. */
  url: d(v.string(), "A pre-signed S3 URL: GET it (Range requests too) until `expires_at`; S3 answers with `content_type` and a Content-Disposition naming the original file."),
  expires_at: d(v.string(), `When the URL stops working (${TIMESTAMP}; MEDIA_URL_TTL_SECONDS after issue, 15 minutes by default).`),
  content_type: d(v.string(), 'The media type of the file, as uploaded, such as `audio/mp4`.'),
  size_bytes: d(v.number(), 'The size of the file, in bytes.'),
});
export const PublicRecordingMediaResponse = envelope(d(RecordingMedia, "Where to play or download the recording's file."));

export const Template = v.strictObject({
  id: d(v.string(), "The template's id."),
  name: d(v.string(), 'Its name, as members see it.'),
  description: d(v.string(), 'What it is for (may be empty).'),
  sections: d(
    v.array(
      v.strictObject({
        title: d(v.string(), 'The heading of this part of the summary.'),
        prompt: d(v.string(), 'What the AI writes under it.'),
      }),
    ),
    'The parts of a summary made with it, in order.',
  ),
  created_at: createdAt('template'),
  updated_at: updatedAt('template'),
});
/** A page of templates (`pagination` added when the list became paged; `templates` unchanged). */
export const TemplateListResponse = v.strictObject({
  templates: d(v.array(Template), "This page of the organization's templates, by name (case-insensitive), then id."),
  pagination: d(PagePagination, 'Where this page is in the list.'),
});

export const Invite = v.strictObject({
  id: d(v.string(), "The invitation's id."),
  email: d(v.string(), 'Who is invited (lower case).'),
  role: d(v.string(), 'The role they get on accepting: owner, admin, member or viewer.'),
  status: d(
    v.picklist(['pending', 'accepted', 'revoked', 'expired']),
    '`pending` until accepted or revoked; `expired` once `expires_at` has passed while pending.',
  ),
  created_at: createdAt('invitation'),
  expires_at: d(v.string(), `When the link stops working (${TIMESTAMP}; INVITE_TTL_SECONDS after the latest send, 7 days by default).`),
  ...InviteEmailDeliveryFields,
});
export const InviteListResponse = v.strictObject({
  invites: d(v.array(Invite), "This page of the organization's invitations, newest first."),
  pagination: d(PagePagination, 'Where this page is in the list.'),
});
export const AcceptInviteResponse = v.strictObject({
  org_id: d(v.string(), 'The organization joined.'),
  role: d(v.string(), 'The role held in it: the invitation\'s.'),
  status: d(v.literal('active'), 'The membership status: always `active`.'),
});
