import { SettingsPatchResponse } from '../../schemas/settings-responses';
import { settingsPatchErrorCode, UpdateMemberSettingsBody } from '../../schemas/settings';
import { defineRoute, memberRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateMemberSettingsRoute = defineRoute({
  name: 'updateMemberSettings',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/users/{userId}/settings',
  publicAlias: '/api/v1/public/users/{userId}/settings',
  handler: 'functions/users/update-member-settings',
  summary: "Change a member's settings, notifications, profile and preferences",
  access: memberRoute('users:write'),
  permissions: {
    table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem', 'ConditionCheckItem'],
    profileKey: ['GenerateDataKey'],
  },
  request: { body: UpdateMemberSettingsBody, bodyErrorCode: settingsPatchErrorCode },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateMemberSettingsDocs = (): OperationDocs => ({
  description:
    "Changes any of a member's settings, notifications, profile and preferences in one transaction (all or nothing); each section has its own 400 code. The change is audited, never its content.",
  responses: { 200: SettingsPatchResponse },
  errors: {
    400: ['EMPTY_PATCH', 'INVALID_SETTING', 'INVALID_PROFILE', 'INVALID_PREFERENCES'],
    404: ['MEMBER_NOT_FOUND'],
    409: ['CONCURRENT_UPDATE'],
  },
  examples: {
    request: {
      settings: { selected_theme: 'light', auto_transcription: false },
      notifications: { highlight_time: '08:15' },
      profile: { profile: '# Mia\n\nSales lead for APAC and, from December, EMEA.' },
      preferences: [
        { command: 'summarize', command_type: 'manual', preference_content: 'Name the customer in the first line.' },
        { id: 'pref_demo_translate', preference_content: 'Keep product and company names in English.' },
      ],
    },
    responses: {
      200: {
        success: true,
        applied: {
          settings: true,
          notifications: true,
          profile: true,
          preferences_created: 1,
          preferences_updated: 1,
          preferences_deleted: 0,
        },
        profile_version: 2,
      },
    },
  },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { userId: ids.memberId },
    body: {
      settings: { selected_theme: 'light', auto_transcription: true },
      notifications: { highlight_time: '08:00' },
      profile: { profile: '# Mia\n\nSales lead for the APAC region. Prefers short summaries with action items first.' },
      preferences: [{ command: 'summarize', command_type: 'summary_enhance', preference_content: 'Keep summaries under 200 words.' }],
    },
    status: 200,
  }),
});
