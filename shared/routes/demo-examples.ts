/**
 * The demo organization of fixtures/demo.json (org_demo, Olivia the owner, Adam the admin, Mia
 * the member, the Monday standup and the Kobe Trading call, the Sales call template) as the API
 * would show it: the example values that several routes' examples share. A value one route
 * alone shows is in its route module. test/unit/openapi-content.test.ts validates every example
 * against its valibot schema and checks that its ids are the fixture's.
 */

/** The ids of the demo's organization, people and resources. */
export const ORG = 'org_demo';
export const OWNER = 'usr_demo_owner';
export const ADMIN = 'usr_demo_admin';
export const MEMBER = 'usr_demo_member';
export const STANDUP = 'rec_demo_standup';
export const TEMPLATE = 'tpl_demo_sales_call';
export const INVITE = 'inv_demo_nora';
export const WEBHOOK = 'wh_demo_crm';

export const mia = {
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

export const page = (total: number, limit: number) => ({
  page: 1,
  limit,
  total,
  total_pages: Math.ceil(total / limit),
  has_more: total > limit,
});

export const standupItem = {
  id: STANDUP,
  title: 'Monday standup',
  duration: 612,
  language: 'en',
  recorded_by: MEMBER,
  tags: ['tag_demo_standup'],
  created_at: '2026-11-16T09:05:00.000Z',
};

export const salesTemplate = {
  id: TEMPLATE,
  name: 'Sales call',
  description: 'For customer calls: needs, objections, next steps.',
  sections: [
    { title: 'Customer needs', prompt: 'List what the customer said they need, in their words.' },
    { title: 'Objections', prompt: 'List the objections raised and how they were answered.' },
    { title: 'Next steps', prompt: 'List agreed next steps with owners and dates.' },
  ],
  is_default: false,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

export const invite = {
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

export const orgKey = {
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

export const webhook = {
  id: WEBHOOK,
  url: 'https://crm.demo.example/hooks/voice-org',
  description: 'Sync recordings to the CRM',
  events: ['recording.uploaded', 'recording.updated'],
  enabled: true,
  disabled_reason: null,
  created_at: '2026-11-12T11:00:00.000Z',
  updated_at: '2026-11-12T11:00:00.000Z',
};

export const delivery = {
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

export const mediaUrl = {
  url: `https://voice-org-recordings.s3.eu-west-1.amazonaws.com/recordings/${ORG}/${STANDUP}/original?response-content-disposition=inline%3B%20filename%3D%22standup.m4a%22&X-Amz-Expires=900&X-Amz-Signature=…`,
  expires_at: '2026-11-20T10:15:00.000Z',
  content_type: 'audio/mp4',
  size_bytes: 9_830_400,
};

/** The demo's voice memo as Transcribe recording answers it: queued, its state `processing`. */
export const queuedVoiceMemo = {
  id: 'rec_demo_voice_memo',
  title: 'Voice memo',
  description: 'Notes to self after the Kobe Trading call.',
  duration: 95,
  language: 'en',
  recorded_by: MEMBER,
  tags: ['tag_demo_sales'],
  folder_id: null,
  state: 'processing',
  upload_error: '',
  transcript_status: 'queued',
  transcript_error: '',
  created_at: '2026-10-28T15:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  recording_at: '2026-10-28T15:00:00.000Z',
};
