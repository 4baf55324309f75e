import { SettingsBundleResponse } from '../../schemas/settings-responses';
import { GetSettingsQuery } from '../../schemas/settings';
import { MEMBER } from '../demo-examples';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getMemberSettingsRoute = defineRoute({
  name: 'getMemberSettings',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/users/{userId}/settings',
  publicAlias: '/api/v1/public/users/{userId}/settings',
  handler: 'functions/users/get-member-settings',
  summary: "Read a member's settings bundle",
  access: memberRoute('users:read'),
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query'], profileKey: ['Decrypt'] },
  request: { query: GetSettingsQuery },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getMemberSettingsDocs = (): OperationDocs => {
  const settingsBundle = {
    user: {
      user_id: MEMBER,
      email: 'mia.member@demo.example',
      display_name: 'Mia Member',
      role: 'member',
      status: 'active',
      timezone: 'Asia/Tokyo',
    },
    settings: {
      conversation_language: 'Japanese',
      selected_theme: 'dark',
      selected_model: 'claude-sonnet-4-5',
      auto_transcription: true,
      sync_to_cloud: true,
      auto_add_tasks_from_summaries: false,
      auto_route_enabled: false,
      calendar_matching: false,
      find_service_enabled: false,
      max_speakers: 10,
      monthly_transcription_minutes: 42,
      created_at: '2026-11-01T10:00:00.000Z',
      updated_at: '2026-11-15T08:00:00.000Z',
    },
    notifications: {
      highlight_time: '07:30',
      processing_notifications_enabled: true,
      sync_nudges_enabled: true,
      morning_welcome_notifications_enabled: true,
      reminder_notifications_enabled: true,
    },
    profile: { profile: '# Mia\n\nSales lead for the APAC region. Prefers short summaries with action items first.', version: 1 },
  };
  return {
    description:
      "Reads a member's settings bundle: user and settings always, notifications by default, profile, preferences and tags when asked for with `include` or `include_<section>`.",
    responses: { 200: SettingsBundleResponse },
    errors: { 404: ['MEMBER_NOT_FOUND'] },
    examples: { responses: { 200: { success: true, data: settingsBundle } } },
    sample: (ids) => ({
      credential: 'orgKey',
      path: { userId: ids.memberId },
      query: { include: 'profile,preferences,tags,notifications' },
      status: 200,
    }),
  };
};
