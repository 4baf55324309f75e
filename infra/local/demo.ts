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

/** The demo organization loaded into a fresh local deployment: fixtures/demo.json, plus keys made for each data directory. */
export const DEMO_FIXTURE_FILE = path.resolve(__dirname, '../../fixtures/demo.json');

/** The demo fixture as written (what `npx voice-org seed --file fixtures/demo.json` loads too). */
export function readDemoFixture(): FixtureInput {
  return JSON.parse(readFileSync(DEMO_FIXTURE_FILE, 'utf8')) as FixtureInput;
}

export const DEMO_ORG_ID = 'org_demo';

/** The demo's people by what they show (role or membership status); their details come from the fixture. */
const DEMO_USER_IDS = {
  owner: 'usr_demo_owner',
  admin: 'usr_demo_admin',
  member: 'usr_demo_member',
  viewer: 'usr_demo_viewer',
  pending: 'usr_demo_pending',
  removed: 'usr_demo_removed',
} as const;

type DemoUser = { id: string; email: string; display_name: string; timezone?: string };

const demoPeople = readDemoFixture().users ?? [];
export const DEMO_USERS = Object.fromEntries(
  Object.entries(DEMO_USER_IDS).map(([name, id]) => {
    const user = demoPeople.find((candidate) => candidate.id === id);
    if (!user) throw new Error(`${DEMO_FIXTURE_FILE} has no user ${id} (the demo's ${name})`);
    return [name, user];
  }),
) as Record<keyof typeof DEMO_USER_IDS, DemoUser>;

/** Plaintext demo keys, kept in the local data directory only so a restart can print them again. */
export interface DemoCredentials {
  org_id: string;
  org_key: string;
  personal_key: string;
  personal_key_user_id: string;
}

/** The demo fixture with this data directory's keys: an organization key with every scope, and the member's personal key. */
export function demoFixture(credentials: DemoCredentials): FixtureInput {
  return {
    ...readDemoFixture(),
    api_keys: [
      { org_id: DEMO_ORG_ID, key: credentials.org_key, scopes: [...SCOPES] },
      { org_id: DEMO_ORG_ID, user_id: credentials.personal_key_user_id, key: credentials.personal_key, scopes: ['recordings:read', 'recordings:write'] },
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
