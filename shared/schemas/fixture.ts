import * as v from 'valibot';
import { DisplayName, Email, HexColor, Id, MemberStatusName, RoleName, ScopeName, Timestamp, Timezone } from './common';
import { NotificationsPatch, PreferenceCreate, ProfilePatch, SettingsPatch } from './settings';
import { RECORDING_STATES } from '../core/recording-states';
import { CreateTemplateBody } from './templates';
import { CreateApiKeyBody } from './api-keys';
import { UploadUrlBody } from './recordings';

/** A fixture file for `cli seed` and the local demo; documented in docs/fixtures.md. */
export const Fixture = v.strictObject({
  orgs: v.optional(v.array(v.strictObject({ id: Id, name: DisplayName })), []),
  users: v.optional(v.array(v.strictObject({ id: Id, email: Email, display_name: DisplayName, timezone: v.optional(Timezone) })), []),
  memberships: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: Id,
        role: RoleName,
        status: v.optional(MemberStatusName, 'active'),
        member_since: v.optional(Timestamp),
      }),
    ),
    [],
  ),
  api_keys: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: v.optional(Id),
        key: v.string(),
        scopes: v.array(ScopeName),
        /** Its id; absent: derived from the key (the same key always gets the same id). */
        id: v.optional(Id),
        /** Shown in key lists; given when the key is stored (default "Fixture key"). */
        name: v.optional(CreateApiKeyBody.entries.name),
      }),
    ),
    [],
  ),
  tags: v.optional(v.array(v.strictObject({ id: Id, org_id: Id, user_id: Id, name: DisplayName, color: HexColor })), []),
  /** Summarization templates; created, or updated to match. */
  templates: v.optional(v.array(v.strictObject({ id: Id, org_id: Id, ...CreateTemplateBody.entries })), []),
  /** Recordings with their related resources; created once (an existing id is left as it is). */
  recordings: v.optional(
    v.array(
      v.strictObject({
        id: Id,
        org_id: Id,
        recorded_by: Id,
        title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
        description: v.optional(v.pipe(v.string(), v.maxLength(5000)), ''),
        duration: v.pipe(v.number(), v.minValue(0)),
        language: v.pipe(v.string(), v.minLength(2), v.maxLength(35)),
        tags: v.optional(v.array(Id), []),
        folder_id: v.optional(v.nullable(Id), null),
        state: v.optional(v.picklist(RECORDING_STATES), 'ready'),
        created_at: v.optional(Timestamp),
        recording_at: v.optional(Timestamp),
        deleted_at: v.optional(Timestamp),
        /**
         * Its file, declared as Create upload URL declares it: without `uploaded_at` it waits for
         * the file (an S3 event for its key completes it); with it, the file landed then.
         */
        upload: v.optional(
          v.strictObject({
            filename: UploadUrlBody.entries.filename,
            content_type: UploadUrlBody.entries.content_type,
            size_bytes: UploadUrlBody.entries.size_bytes,
            uploaded_at: v.optional(Timestamp),
          }),
        ),
        transcript: v.optional(v.array(v.strictObject({ speaker: v.string(), text: v.string(), start: v.number(), end: v.number() }))),
        summary: v.optional(
          v.strictObject({
            markdown: v.string(),
            template_id: v.optional(v.nullable(Id)),
            template_name: v.optional(v.nullable(v.string())),
          }),
        ),
        action_items: v.optional(
          v.array(
            v.strictObject({
              id: v.optional(Id),
              text: v.pipe(v.string(), v.minLength(1)),
              assignee: v.optional(v.nullable(v.string()), null),
              due_date: v.optional(v.nullable(v.pipe(v.string(), v.isoDate('must be YYYY-MM-DD'))), null),
              completed: v.optional(v.boolean(), false),
            }),
          ),
        ),
        translation: v.optional(
          v.strictObject({
            to_language: v.string(),
            detected_language: v.string(),
            processing_status: v.optional(v.string(), 'completed'),
            error_message: v.optional(v.string(), ''),
          }),
        ),
      }),
    ),
    [],
  ),
  /** Member settings, written like an Update member settings call (profiles are encrypted). */
  settings: v.optional(
    v.array(
      v.strictObject({
        org_id: Id,
        user_id: Id,
        settings: v.optional(SettingsPatch),
        notifications: v.optional(NotificationsPatch),
        profile: v.optional(ProfilePatch.entries.profile),
        preferences: v.optional(v.array(v.strictObject({ id: v.optional(Id), ...PreferenceCreate.entries }))),
      }),
    ),
    [],
  ),
  /**
   * Pending invitations; created once (an existing id is left as it is). Each new one is
   * emailed, with its accept link, like an invitation sent through the API.
   */
  invites: v.optional(
    v.array(
      v.strictObject({
        id: Id,
        org_id: Id,
        email: Email,
        role: v.optional(RoleName, 'member'),
        expires_at: v.optional(Timestamp),
      }),
    ),
    [],
  ),
});
export type Fixture = v.InferOutput<typeof Fixture>;
/** A fixture as written (defaults not yet applied). */
export type FixtureInput = v.InferInput<typeof Fixture>;
