import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCOPES } from '../../shared/auth/access';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { seedFixture } from '../../shared/domain/admin/fixture';
import * as v from 'valibot';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import type { TableContext } from '../../shared/storage/dynamo';
import { parseModelCatalog } from '../../shared/config';
import type { ProfileCipher } from '../../shared/crypto/profile-cipher';

/** The demo organization loaded into a fresh local deployment. */
export const DEMO_ORG_ID = 'org_demo';

export const DEMO_USERS = {
  owner: { id: 'usr_demo_owner', email: 'olivia.owner@demo.example', display_name: 'Olivia Owner', timezone: 'Europe/Paris' },
  admin: { id: 'usr_demo_admin', email: 'adam.admin@demo.example', display_name: 'Adam Admin', timezone: 'America/New_York' },
  member: { id: 'usr_demo_member', email: 'mia.member@demo.example', display_name: 'Mia Member', timezone: 'Asia/Tokyo' },
  viewer: { id: 'usr_demo_viewer', email: 'victor.viewer@demo.example', display_name: 'Victor Viewer', timezone: 'UTC' },
  pending: { id: 'usr_demo_pending', email: 'paula.pending@demo.example', display_name: 'Paula Pending', timezone: 'UTC' },
  removed: { id: 'usr_demo_removed', email: 'rex.removed@demo.example', display_name: 'Rex Removed', timezone: 'UTC' },
} as const;

/** Plaintext demo keys, kept in the local data directory only so a restart can print them again. */
export interface DemoCredentials {
  org_id: string;
  org_key: string;
  personal_key: string;
  personal_key_user_id: string;
}

export function demoFixture(credentials: DemoCredentials): FixtureInput {
  const statusOf = (name: keyof typeof DEMO_USERS) => (name === 'pending' ? 'pending' : name === 'removed' ? 'removed' : 'active');
  const roleOf = (name: keyof typeof DEMO_USERS) => (name === 'owner' || name === 'admin' || name === 'viewer' ? name : 'member');
  return {
    orgs: [{ id: DEMO_ORG_ID, name: 'Demo Voice Co' }],
    users: Object.values(DEMO_USERS).map((user) => ({ ...user })),
    memberships: (Object.keys(DEMO_USERS) as (keyof typeof DEMO_USERS)[]).map((name) => ({
      org_id: DEMO_ORG_ID,
      user_id: DEMO_USERS[name].id,
      role: roleOf(name),
      status: statusOf(name),
    })),
    api_keys: [
      { org_id: DEMO_ORG_ID, key: credentials.org_key, scopes: [...SCOPES] },
      { org_id: DEMO_ORG_ID, user_id: credentials.personal_key_user_id, key: credentials.personal_key, scopes: ['recordings:read', 'recordings:write'] },
    ],
    tags: [
      { id: 'tag_demo_sales', org_id: DEMO_ORG_ID, user_id: DEMO_USERS.member.id, name: 'Sales', color: '#1f77b4' },
      { id: 'tag_demo_standup', org_id: DEMO_ORG_ID, user_id: DEMO_USERS.member.id, name: 'Standup', color: '#2ca02c' },
    ],
    templates: [
      {
        id: 'tpl_demo_sales_call',
        org_id: DEMO_ORG_ID,
        name: 'Sales call',
        description: 'For customer calls: needs, objections, next steps.',
        sections: [
          { title: 'Customer needs', prompt: 'List what the customer said they need, in their words.' },
          { title: 'Objections', prompt: 'List the objections raised and how they were answered.' },
          { title: 'Next steps', prompt: 'List agreed next steps with owners and dates.' },
        ],
      },
    ],
    recordings: [
      {
        id: 'rec_demo_standup',
        org_id: DEMO_ORG_ID,
        recorded_by: DEMO_USERS.member.id,
        title: 'Monday standup',
        description: 'Weekly team standup.',
        duration: 612,
        language: 'en',
        tags: ['tag_demo_standup'],
        state: 'ready',
        created_at: '2026-11-16T09:05:00.000Z',
        recording_at: '2026-11-16T09:00:00.000Z',
        transcript: [
          { speaker: 'Mia', text: 'Morning all, quick round please.', start: 0, end: 3.2 },
          { speaker: 'Adam', text: 'The APAC pricing deck is ready for review.', start: 3.4, end: 7.9 },
          { speaker: 'Mia', text: 'Great, I will send it to the customer on Wednesday.', start: 8.1, end: 12.6 },
        ],
        summary: { markdown: '## Standup\n\n- APAC pricing deck ready for review\n- Deck goes to the customer on Wednesday' },
        action_items: [{ text: 'Send the pricing deck to the customer', assignee: DEMO_USERS.member.id, due_date: '2026-11-18', completed: false }],
      },
      {
        id: 'rec_demo_sales_call',
        org_id: DEMO_ORG_ID,
        recorded_by: DEMO_USERS.admin.id,
        title: 'Sales call with Kobe Trading',
        duration: 1834,
        language: 'ja',
        tags: ['tag_demo_sales'],
        state: 'ready',
        created_at: '2026-11-18T02:30:00.000Z',
        summary: { markdown: '## Call summary\n\nKobe Trading wants a pilot for 40 seats starting in January.' },
        translation: { to_language: 'en', detected_language: 'ja' },
      },
      {
        id: 'rec_demo_old_test',
        org_id: DEMO_ORG_ID,
        recorded_by: DEMO_USERS.owner.id,
        title: 'Microphone test',
        duration: 12,
        language: 'en',
        state: 'ready',
        created_at: '2026-11-02T16:00:00.000Z',
        deleted_at: '2026-11-03T08:00:00.000Z',
      },
    ],
    settings: [
      {
        org_id: DEMO_ORG_ID,
        user_id: DEMO_USERS.member.id,
        settings: { selected_theme: 'dark', conversation_language: 'Japanese', selected_model: 'sonnet' },
        notifications: { highlight_time: '07:30' },
        profile: '# Mia\n\nSales lead for the APAC region. Prefers short summaries with action items first.',
        preferences: [
          { command: 'summarize', command_type: 'summary_enhance', preference_content: 'Put action items before the narrative.' },
          { command: 'translate', command_type: 'manual', preference_content: 'Keep product names in English.' },
        ],
      },
    ],
  };
}

const CREDENTIALS_FILE = 'demo-credentials.json';

export function readDemoCredentials(dataDir: string): DemoCredentials | undefined {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials) : undefined;
}

/** Loads the demo organization with new random keys and remembers the keys locally. */
export async function seedDemo(deps: { db: TableContext; cipher: ProfileCipher }, dataDir: string, now: Date): Promise<DemoCredentials> {
  const credentials: DemoCredentials = {
    org_id: DEMO_ORG_ID,
    org_key: generateApiKey('org_key'),
    personal_key: generateApiKey('user_key'),
    personal_key_user_id: DEMO_USERS.member.id,
  };
  await seedFixture({ db: deps.db, settings: { ...deps, models: parseModelCatalog(process.env) } }, v.parse(Fixture, demoFixture(credentials)), now);
  writeFileSync(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
