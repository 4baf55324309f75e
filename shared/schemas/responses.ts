import * as v from 'valibot';
import { PROBLEM_KINDS } from '../http/errors';
import { RECORDING_STATES } from '../storage/recordings';
import { InviteEmailDeliveryFields } from './invites';
import { Member } from './members';

/**
 * The shapes of the API's responses, for the OpenAPI document and the contract check of
 * the integration tests. Derived from the views in shared/domain and the handlers in
 * functions/. Only the OpenAPI generator imports this module (no handler bundle carries it).
 */

const NullableString = v.nullable(v.string());

/** `{success: false, data: null, error: CODE, message}`: every refusal, gateway ones included. */
export const ErrorEnvelope = v.strictObject({
  success: v.literal(false),
  data: v.null(),
  error: v.string(),
  message: v.string(),
  /** 400s only: each offending field (query or path parameter, or body path such as sections[2].title) and what is wrong with it. */
  details: v.optional(
    v.array(
      v.strictObject({
        field: v.string(),
        issue: v.picklist(PROBLEM_KINDS),
        message: v.string(),
      }),
    ),
  ),
});

/** `{success: true}`. */
export const SuccessOnly = v.strictObject({ success: v.literal(true) });

export const PagePagination = v.strictObject({
  page: v.number(),
  limit: v.number(),
  total: v.number(),
  total_pages: v.number(),
  has_more: v.boolean(),
});

const envelope = <T extends v.GenericSchema>(data: T) => v.strictObject({ success: v.literal(true), data });
const pagedEnvelope = <T extends v.GenericSchema>(data: T) =>
  v.strictObject({ success: v.literal(true), data, pagination: PagePagination });

export const HealthResponse = v.strictObject({ status: v.literal('ok') });

export const MemberListResponse = pagedEnvelope(v.array(v.strictObject(Member.entries)));

const Tag = v.strictObject({ id: v.string(), name: v.string(), color: v.string(), created_at: v.string(), updated_at: v.string() });
const Preference = v.strictObject({
  id: v.string(),
  command: v.string(),
  command_type: v.string(),
  preference_content: v.string(),
  source_recording_id: v.optional(NullableString),
  source_summarization_id: v.optional(NullableString),
  metadata: v.optional(v.record(v.string(), v.unknown())),
  created_at: v.string(),
  updated_at: v.string(),
});

export const SettingsBundle = v.strictObject({
  user: v.strictObject({
    user_id: v.string(),
    email: v.string(),
    display_name: v.string(),
    role: v.string(),
    status: v.string(),
    timezone: v.string(),
  }),
  settings: v.strictObject({
    conversation_language: v.string(),
    selected_theme: v.string(),
    selected_model: v.string(),
    auto_transcription: v.boolean(),
    sync_to_cloud: v.boolean(),
    auto_add_tasks_from_summaries: v.boolean(),
    auto_route_enabled: v.boolean(),
    calendar_matching: v.boolean(),
    find_service_enabled: v.boolean(),
    monthly_transcription_minutes: v.number(),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  notifications: v.optional(
    v.strictObject({
      highlight_time: v.string(),
      processing_notifications_enabled: v.boolean(),
      sync_nudges_enabled: v.boolean(),
      morning_welcome_notifications_enabled: v.boolean(),
      reminder_notifications_enabled: v.boolean(),
    }),
  ),
  profile: v.optional(v.strictObject({ profile: v.string(), version: v.number() })),
  preferences: v.optional(v.strictObject({ data: v.array(Preference), pagination: PagePagination })),
  tags: v.optional(v.array(Tag)),
});
export const SettingsBundleResponse = envelope(SettingsBundle);

export const SettingsPatchResponse = v.strictObject({
  success: v.literal(true),
  applied: v.strictObject({
    settings: v.boolean(),
    notifications: v.boolean(),
    profile: v.boolean(),
    preferences_created: v.number(),
    preferences_updated: v.number(),
    preferences_deleted: v.number(),
  }),
  profile_version: v.number(),
});

export const RecordingListItem = v.strictObject({
  id: v.string(),
  title: v.string(),
  duration: v.number(),
  language: v.string(),
  recorded_by: v.string(),
  tags: v.array(v.string()),
  created_at: v.string(),
  deleted_at: v.optional(v.string()),
});

export const RecordingListResponse = v.strictObject({
  recordings: v.array(RecordingListItem),
  pagination: v.strictObject({ page: v.number(), limit: v.number(), total: v.number(), next_cursor: NullableString }),
});

const TranscriptSegment = v.strictObject({ speaker: v.string(), text: v.string(), start: v.number(), end: v.number() });
const ActionItem = v.strictObject({ id: v.string(), text: v.string(), assignee: NullableString, due_date: NullableString, completed: v.boolean() });
const Translation = v.strictObject({
  id: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
  detected_language: v.string(),
  to_language: v.string(),
  processing_status: v.string(),
  error_message: v.string(),
});

const Summary = v.strictObject({
  markdown: v.string(),
  template_id: NullableString,
  template_name: NullableString,
  created_at: v.optional(v.string()),
  updated_at: v.optional(v.string()),
});

/**
 * A recording's `state`: pending_upload → uploaded → processing → ready, or failed (an upload
 * that is not the declared size or type, or failed processing).
 */
const RecordingStateField = v.picklist(RECORDING_STATES);

export const RecordingResponse = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  duration: v.number(),
  language: v.string(),
  recorded_by: v.string(),
  tags: v.array(v.string()),
  folder_id: v.optional(NullableString),
  state: RecordingStateField,
  /** Why the upload failed (state `failed`), e.g. `size_mismatch: declared 5 bytes, received 20`; `""` when it did not. */
  upload_error: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
  recording_at: v.optional(NullableString),
  transcript: v.optional(v.nullable(v.array(TranscriptSegment))),
  summary: v.optional(v.nullable(Summary)),
  action_items: v.optional(v.nullable(v.array(ActionItem))),
  translation: v.optional(v.nullable(Translation)),
});

export const RecordingUpdateResponse = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  duration: v.number(),
  tags: v.array(v.string()),
  updated_at: v.string(),
});

export const PublicRecording = v.strictObject({
  id: v.string(),
  title: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
  recording_at: v.optional(NullableString),
  duration: v.number(),
  language: v.string(),
  folder_id: v.string(),
  state: RecordingStateField,
  recorded_by: v.strictObject({ display_name: v.string(), email: v.string(), user_id: v.string() }),
  tags: v.array(v.strictObject({ id: v.string(), name: v.string(), color: v.string() })),
  summarizations: v.nullable(v.array(v.strictObject({ id: v.string(), ...Summary.entries }))),
  summarizations_errors: v.array(v.unknown()),
  transcript: v.nullable(
    v.strictObject({ id: v.string(), language: v.string(), segment_count: v.number(), created_at: v.string(), updated_at: v.string() }),
  ),
  transcript_error: v.string(),
  translation: v.nullable(Translation),
  translation_error: v.string(),
  upload_error: v.string(),
});
export const PublicRecordingListResponse = pagedEnvelope(v.array(PublicRecording));

export const UploadUrlResponse = envelope(
  v.strictObject({
    recording_id: v.string(),
    upload_url: v.string(),
    method: v.literal('PUT'),
    /** The headers the PUT must send exactly: both are signed into the URL. */
    headers: v.strictObject({ 'content-type': v.string(), 'content-length': v.string() }),
    expires_at: v.string(),
  }),
);

/** A pre-signed GET of a recording's file (Get recording media): the org route answers it bare, the public route in the envelope. */
export const RecordingMedia = v.strictObject({
  /** GET it (Range requests too) until expires_at; S3 answers with content_type and a Content-Disposition naming the original file. */
  url: v.string(),
  expires_at: v.string(),
  content_type: v.string(),
  size_bytes: v.number(),
});
export const PublicRecordingMediaResponse = envelope(RecordingMedia);

export const Template = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  sections: v.array(v.strictObject({ title: v.string(), prompt: v.string() })),
  created_at: v.string(),
  updated_at: v.string(),
});
/** A page of templates (`pagination` added when the list became paged; `templates` unchanged). */
export const TemplateListResponse = v.strictObject({ templates: v.array(Template), pagination: PagePagination });

export const Invite = v.strictObject({
  id: v.string(),
  email: v.string(),
  role: v.string(),
  status: v.picklist(['pending', 'accepted', 'revoked', 'expired']),
  created_at: v.string(),
  expires_at: v.string(),
  ...InviteEmailDeliveryFields,
});
export const InviteListResponse = v.strictObject({ invites: v.array(Invite), pagination: PagePagination });
export const AcceptInviteResponse = v.strictObject({ org_id: v.string(), role: v.string(), status: v.literal('active') });
