import type { OperationRouteName } from '../routes';

/**
 * One example of every request body and every success response of the API, for the OpenAPI
 * document: the demo organization of fixtures/demo.json (org_demo, Olivia the owner, Adam the
 * admin, Mia the member, the Monday standup and the Kobe Trading call, the Sales call
 * template) as the API would show it. test/unit/openapi-content.test.ts validates each one
 * against its valibot schema and checks that none is missing.
 *
 * Only the document generator imports this module: no handler bundle carries the examples.
 */

export interface RouteExamples {
  /** The JSON body of a request, for routes that take one. */
  request?: unknown;
  /** The body of each success status. */
  responses: Record<number, unknown>;
}

const ORG = 'org_demo';
const OWNER = 'usr_demo_owner';
const ADMIN = 'usr_demo_admin';
const MEMBER = 'usr_demo_member';
const STANDUP = 'rec_demo_standup';
const SALES_CALL = 'rec_demo_sales_call';
const TEMPLATE = 'tpl_demo_sales_call';
const INVITE = 'inv_demo_nora';
const WEBHOOK = 'wh_demo_crm';
const CORRELATION = '6f1c2b7e-3d4a-4e5f-9a8b-0c1d2e3f4a5b';

const mia = {
  user_id: MEMBER,
  email: 'mia.member@demo.example',
  display_name: 'Mia Member',
  role: 'member',
  status: 'active',
  is_active: true,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  member_since: '2026-11-01T10:00:00.000Z',
  recording_count: 1,
  latest_recording_at: '2026-11-16T09:05:00.000Z',
};

const adam = {
  ...mia,
  user_id: ADMIN,
  email: 'adam.admin@demo.example',
  display_name: 'Adam Admin',
  role: 'admin',
  recording_count: 1,
  latest_recording_at: '2026-11-18T02:30:00.000Z',
};

const page = (total: number, limit: number) => ({ page: 1, limit, total, total_pages: Math.ceil(total / limit), has_more: total > limit });

const standupItem = {
  id: STANDUP,
  title: 'Monday standup',
  duration: 612,
  language: 'en',
  recorded_by: MEMBER,
  tags: ['tag_demo_standup'],
  created_at: '2026-11-16T09:05:00.000Z',
};

const salesCallItem = {
  id: SALES_CALL,
  title: 'Sales call with Kobe Trading',
  duration: 1834,
  language: 'ja',
  recorded_by: ADMIN,
  tags: ['tag_demo_sales'],
  created_at: '2026-11-18T02:30:00.000Z',
};

const salesTemplate = {
  id: TEMPLATE,
  name: 'Sales call',
  description: 'For customer calls: needs, objections, next steps.',
  sections: [
    { title: 'Customer needs', prompt: 'List what the customer said they need, in their words.' },
    { title: 'Objections', prompt: 'List the objections raised and how they were answered.' },
    { title: 'Next steps', prompt: 'List agreed next steps with owners and dates.' },
  ],
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

const invite = {
  id: INVITE,
  email: 'nora.new@demo.example',
  role: 'member',
  status: 'pending',
  created_at: '2026-11-20T14:00:00.000Z',
  expires_at: '2026-11-27T14:00:00.000Z',
  email_status: 'sent',
  email_sent_at: '2026-11-20T14:00:02.000Z',
  email_attempts: 1,
  email_last_error: null,
};

const orgKey = {
  id: 'key_5886692c5addf4389e67',
  kind: 'org',
  name: 'CRM integration',
  prefix: 'pk_org_7c3f1e',
  scopes: ['users:read', 'recordings:read'],
  user_id: null,
  status: 'active',
  created_at: '2026-11-10T08:00:00.000Z',
  created_by: OWNER,
  last_used_at: '2026-11-20T09:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  rotated_at: null,
  rate_limit: { rate: 5, burst: 10 },
};
const ORG_KEY_SECRET = 'pk_org_7c3f1e9a2b4d6c8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c';

const webhook = {
  id: WEBHOOK,
  url: 'https://crm.demo.example/hooks/voice-org',
  description: 'Sync recordings to the CRM',
  events: ['recording.uploaded', 'recording.updated'],
  enabled: true,
  disabled_reason: null,
  created_at: '2026-11-12T11:00:00.000Z',
  updated_at: '2026-11-12T11:00:00.000Z',
};
const WEBHOOK_SECRET = 'whsec_BwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSY=';

const delivery = {
  id: 'dlv_0193a6f2c1e82d711642b726b0440162',
  event_id: 'evt_0cc175b9c0f1b6a831c399e269772661',
  event_type: 'recording.uploaded',
  status: 'succeeded',
  attempts: 1,
  created_at: '2026-11-20T09:30:00.000Z',
  last_attempt_at: '2026-11-20T09:30:01.000Z',
  next_attempt_at: null,
  response_status: 200,
  response_ms: 182,
  error: null,
};

const uploadUrlTarget = `https://voice-org-recordings.s3.eu-west-1.amazonaws.com/recordings/${ORG}/rec_8f2a4c6e0b1d3f5a7c9e/original?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=…`;

const mediaUrl = {
  url: `https://voice-org-recordings.s3.eu-west-1.amazonaws.com/recordings/${ORG}/${STANDUP}/original?response-content-disposition=inline%3B%20filename%3D%22standup.m4a%22&X-Amz-Expires=900&X-Amz-Signature=…`,
  expires_at: '2026-11-20T10:15:00.000Z',
  content_type: 'audio/mp4',
  size_bytes: 9_830_400,
};

const settingsBundle = {
  user: { user_id: MEMBER, email: 'mia.member@demo.example', display_name: 'Mia Member', role: 'member', status: 'active', timezone: 'Asia/Tokyo' },
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

const publicRecording = {
  id: STANDUP,
  title: 'Monday standup',
  created_at: '2026-11-16T09:05:00.000Z',
  updated_at: '2026-11-16T09:20:00.000Z',
  recording_at: '2026-11-16T09:00:00.000Z',
  duration: 612,
  language: 'en',
  folder_id: '',
  state: 'ready',
  recorded_by: { display_name: 'Mia Member', email: 'mia.member@demo.example', user_id: MEMBER },
  tags: [{ id: 'tag_demo_standup', name: 'Standup', color: '#2ca02c' }],
  summarizations: [
    {
      id: `${STANDUP}_summary`,
      markdown: '## Standup\n\n- APAC pricing deck ready for review\n- Deck goes to the customer on Wednesday',
      template_id: null,
      template_name: null,
      created_at: '2026-11-16T09:20:00.000Z',
      updated_at: '2026-11-16T09:20:00.000Z',
    },
  ],
  summarizations_errors: [],
  transcript: { id: `${STANDUP}_transcript`, language: 'en', segment_count: 3, created_at: '2026-11-16T09:15:00.000Z', updated_at: '2026-11-16T09:15:00.000Z' },
  transcript_error: '',
  translation: null,
  translation_error: '',
  upload_error: '',
};

export const ROUTE_EXAMPLES: Record<OperationRouteName, RouteExamples> = {
  health: { responses: { 200: { status: 'ok' } } },
  listUsers: { responses: { 200: { success: true, data: [adam, mia], pagination: page(2, 25) } } },
  getMemberSettings: { responses: { 200: { success: true, data: settingsBundle } } },
  updateMemberSettings: {
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
        applied: { settings: true, notifications: true, profile: true, preferences_created: 1, preferences_updated: 1, preferences_deleted: 0 },
        profile_version: 2,
      },
    },
  },
  updateMember: { request: { role: 'admin' }, responses: { 200: { success: true, data: { ...mia, role: 'admin', updated_at: '2026-11-20T10:00:00.000Z' } } } },
  removeMember: {
    responses: { 200: { success: true, data: { ...mia, status: 'removed', is_active: false, updated_at: '2026-11-20T10:00:00.000Z' } } },
  },
  listRecordings: {
    responses: { 200: { recordings: [salesCallItem, standupItem], pagination: { page: 1, limit: 20, total: 2, next_cursor: null } } },
  },
  getRecording: {
    responses: {
      200: {
        ...standupItem,
        description: 'Weekly team standup.',
        folder_id: null,
        state: 'ready',
        upload_error: '',
        updated_at: '2026-11-16T09:20:00.000Z',
        recording_at: '2026-11-16T09:00:00.000Z',
        transcript: [
          { speaker: 'Mia', text: 'Morning all, quick round please.', start: 0, end: 3.2 },
          { speaker: 'Adam', text: 'The APAC pricing deck is ready for review.', start: 3.4, end: 7.9 },
        ],
        summary: {
          markdown: '## Standup\n\n- APAC pricing deck ready for review\n- Deck goes to the customer on Wednesday',
          template_id: null,
          template_name: null,
          created_at: '2026-11-16T09:20:00.000Z',
          updated_at: '2026-11-16T09:20:00.000Z',
        },
      },
    },
  },
  getRecordingMedia: { responses: { 200: mediaUrl } },
  updateRecording: {
    request: { title: 'Monday standup (APAC)', tags: ['tag_demo_standup', 'tag_demo_sales'] },
    responses: {
      200: {
        id: STANDUP,
        title: 'Monday standup (APAC)',
        description: 'Weekly team standup.',
        duration: 612,
        tags: ['tag_demo_standup', 'tag_demo_sales'],
        updated_at: '2026-11-20T10:00:00.000Z',
      },
    },
  },
  deleteRecording: { responses: { 200: { success: true } } },
  restoreRecording: {
    responses: { 200: { id: 'rec_demo_old_test', title: 'Microphone test', duration: 12, language: 'en', recorded_by: OWNER, tags: [], created_at: '2026-11-02T16:00:00.000Z' } },
  },
  createUploadUrl: {
    request: { filename: 'client-call.m4a', content_type: 'audio/mp4', size_bytes: 48_213_504, title: 'Client call', language: 'en', tag_ids: ['tag_demo_sales'] },
    responses: {
      201: {
        success: true,
        data: {
          recording_id: 'rec_8f2a4c6e0b1d3f5a7c9e',
          upload_url: uploadUrlTarget,
          method: 'PUT',
          headers: { 'content-type': 'audio/mp4', 'content-length': '48213504' },
          expires_at: '2026-11-20T10:15:00.000Z',
        },
      },
    },
  },
  listPublicRecordings: { responses: { 200: { success: true, data: [publicRecording], pagination: page(1, 20) } } },
  getPublicRecordingMedia: { responses: { 200: { success: true, data: mediaUrl } } },
  listTemplates: { responses: { 200: { templates: [salesTemplate], pagination: page(1, 100) } } },
  getTemplate: { responses: { 200: salesTemplate } },
  createTemplate: {
    request: {
      name: 'Weekly standup',
      description: 'What each person did, will do, and what blocks them.',
      sections: [
        { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
        { title: 'Blockers', prompt: 'List what blocks anyone, and who can help.' },
      ],
    },
    responses: {
      201: {
        id: 'tpl_3b7e9d1f5a2c4e6b8d0f',
        name: 'Weekly standup',
        description: 'What each person did, will do, and what blocks them.',
        sections: [
          { title: 'Progress', prompt: 'List what each person finished since the last standup.' },
          { title: 'Blockers', prompt: 'List what blocks anyone, and who can help.' },
        ],
        created_at: '2026-11-20T10:00:00.000Z',
        updated_at: '2026-11-20T10:00:00.000Z',
      },
    },
  },
  updateTemplate: {
    request: { description: 'For customer calls: needs, objections, pricing and next steps.' },
    responses: { 200: { ...salesTemplate, description: 'For customer calls: needs, objections, pricing and next steps.', updated_at: '2026-11-20T10:00:00.000Z' } },
  },
  deleteTemplate: { responses: { 200: { success: true } } },
  sendInvite: {
    request: { email: 'nora.new@demo.example', role: 'member' },
    responses: { 201: { ...invite, email_status: 'queued', email_sent_at: null, email_attempts: 0 } },
  },
  listInvites: { responses: { 200: { invites: [invite], pagination: page(1, 20) } } },
  revokeInvite: { responses: { 200: { success: true } } },
  resendInvite: { responses: { 200: { success: true } } },
  acceptInvite: { request: { token: 'b3f1c9a7e5d24f6081a3c5e7f9b1d3f5a7c9e1b3d5f7a9c1' }, responses: { 200: { org_id: ORG, role: 'member', status: 'active' } } },
  listAuditLog: {
    responses: {
      200: {
        entries: [
          {
            id: 'evt_0cc175b9c0f1b6a831c399e269772661',
            type: 'recording.updated',
            occurred_at: '2026-11-20T10:00:00.000Z',
            actor: { kind: 'user', id: ADMIN },
            resource: { type: 'recording', id: STANDUP },
            correlation_id: CORRELATION,
            changes: ['title', 'tags'],
          },
        ],
        pagination: { page: 1, limit: 20, next_cursor: null },
      },
    },
  },
  listApiKeys: { responses: { 200: { api_keys: [orgKey], pagination: { limit: 20, next_cursor: null } } } },
  createApiKey: {
    request: { kind: 'org', name: 'CRM integration', scopes: ['users:read', 'recordings:read'], rate_limit: { rate: 5, burst: 10 } },
    responses: { 201: { ...orgKey, created_at: '2026-11-20T10:00:00.000Z', last_used_at: null, secret: ORG_KEY_SECRET } },
  },
  getApiKey: { responses: { 200: orgKey } },
  revokeApiKey: { responses: { 200: { ...orgKey, status: 'revoked', revoked_at: '2026-11-20T10:00:00.000Z' } } },
  rotateApiKey: {
    request: { grace_period_seconds: 3600 },
    responses: {
      200: {
        ...orgKey,
        prefix: 'pk_org_9e8d7c',
        rotated_at: '2026-11-20T10:00:00.000Z',
        secret: 'pk_org_9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f',
        previous_secret_expires_at: '2026-11-20T11:00:00.000Z',
      },
    },
  },
  listWebhooks: { responses: { 200: { webhooks: [webhook] } } },
  createWebhook: {
    request: { url: 'https://crm.demo.example/hooks/voice-org', description: 'Sync recordings to the CRM', events: ['recording.uploaded', 'recording.updated'] },
    responses: { 201: { ...webhook, secret: WEBHOOK_SECRET } },
  },
  getWebhook: { responses: { 200: webhook } },
  updateWebhook: { request: { enabled: false }, responses: { 200: { ...webhook, enabled: false, disabled_reason: 'manual', updated_at: '2026-11-20T10:00:00.000Z' } } },
  deleteWebhook: { responses: { 200: { success: true } } },
  rotateWebhookSecret: {
    responses: {
      200: {
        ...webhook,
        updated_at: '2026-11-20T10:00:00.000Z',
        secret: 'whsec_KCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkc=',
        previous_secret_expires_at: '2026-11-21T10:00:00.000Z',
      },
    },
  },
  testWebhook: {
    responses: {
      202: {
        ...delivery,
        id: 'dlv_0193a7c4e2f02f3a9c1b7d5e3f1a2b4c',
        event_id: 'evt_92eb5ffee6ae2fec3ad71c777531578f',
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        created_at: '2026-11-20T10:00:00.000Z',
        last_attempt_at: null,
        next_attempt_at: '2026-11-20T10:00:00.000Z',
        response_status: null,
        response_ms: null,
      },
    },
  },
  listWebhookDeliveries: { responses: { 200: { deliveries: [delivery], pagination: { limit: 20, next_cursor: null } } } },
  retryWebhookDelivery: { responses: { 202: { ...delivery, status: 'pending', next_attempt_at: '2026-11-20T10:00:00.000Z' } } },
};
