import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCOPES } from '../../shared/auth/access';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { seedFixture } from '../../shared/domain/admin/fixture';
import type { Fixture } from '../../shared/schemas/fixture';
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

export function demoFixture(credentials: DemoCredentials): Fixture {
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
  await seedFixture({ db: deps.db, settings: { ...deps, models: parseModelCatalog(process.env) } }, demoFixture(credentials), now);
  writeFileSync(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
