import type { Membership } from '../../storage/membership-items';
import type { MemberSettingsRecord, PreferenceRecord } from '../../storage/member-settings-items';
import type { Tag } from '../../storage/tags';
import type { User } from '../../storage/users';
import { DEFAULT_NOTIFICATIONS, DEFAULT_SETTINGS, type ModelCatalog } from '../../core/settings-catalog';

/** The `user` block of the bundle. */
export function userView(membership: Membership, user: User | undefined) {
  return {
    user_id: membership.user_id,
    email: membership.email,
    display_name: membership.display_name,
    role: membership.role,
    status: membership.status,
    timezone: user?.timezone ?? 'UTC',
  };
}

/** The `settings` block: defaults, overlaid by what the member (or an admin) chose. */
/** `monthlyTranscriptionMinutes`: this UTC month's billed minutes (read-only: the usage counts them, never a write of the settings). */
export function settingsView(
  record: MemberSettingsRecord | undefined,
  membership: Membership,
  models: ModelCatalog,
  monthlyTranscriptionMinutes = 0,
) {
  const chosen = { ...DEFAULT_SETTINGS, selected_model: models.fallback, ...record?.settings };
  return {
    conversation_language: chosen.conversation_language,
    selected_theme: chosen.selected_theme,
    selected_model: chosen.selected_model,
    auto_transcription: chosen.auto_transcription,
    sync_to_cloud: chosen.sync_to_cloud,
    auto_add_tasks_from_summaries: chosen.auto_add_tasks_from_summaries,
    auto_route_enabled: chosen.auto_route_enabled,
    calendar_matching: chosen.calendar_matching,
    find_service_enabled: chosen.find_service_enabled,
    max_speakers: chosen.max_speakers,
    monthly_transcription_minutes: monthlyTranscriptionMinutes,
    // Never saved: the settings are as old as the membership.
    created_at: record?.created_at ?? membership.created_at,
    updated_at: record?.updated_at ?? membership.created_at,
  };
}

export function notificationsView(record: MemberSettingsRecord | undefined) {
  return { ...DEFAULT_NOTIFICATIONS, ...record?.notifications };
}

export function preferenceView(p: PreferenceRecord) {
  return {
    id: p.id,
    command: p.command,
    command_type: p.command_type,
    preference_content: p.preference_content,
    source_recording_id: p.source_recording_id,
    source_summarization_id: p.source_summarization_id,
    metadata: p.metadata,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function tagView(tag: Tag) {
  return { id: tag.tag_id, name: tag.name, color: tag.color, created_at: tag.created_at, updated_at: tag.updated_at };
}
