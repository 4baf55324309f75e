import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCOPES } from '../../shared/core/access';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import * as v from 'valibot';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import type { TableContext } from '../../shared/storage/dynamo';
import { parseModelCatalog } from '../../shared/config';
import type { ProfileCipher } from '../../shared/crypto/profile-cipher';
import type { WebhookSecretCipher } from '../../shared/crypto/webhook-secret-cipher';
import { seedDemoWebhooks } from './demo-webhooks';
import { seedCompletedErasure } from './demo-erasures';
import { queuedMemberExport } from '../../shared/domain/exports/create-member-export';
import { insertMemberExport } from '../../shared/storage/member-exports';

/**
 * The demo organization loaded into a fresh local deployment: fixtures/demo.json, plus what
 * holds a secret and so is made for each data directory: its API keys and its webhook
 * endpoints (infra/local/demo-webhooks.ts). The sample events of events/ act on all of it.
 */
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

/**
 * The ids of the demo's keys. Their secrets are random per data directory, their ids are not:
 * an id is no secret, and a stable one lets the sample events name the key a request is
 * made with (the authorizer's context) and the key they manage, as any user's demo has them.
 */
export const DEMO_KEY_IDS = {
  /** ORG_KEY: an organization key with every scope. */
  org: 'key_demo_org',
  /** PERSONAL_KEY: Mia's personal key. */
  personal: 'key_demo_mia',
  /** "CRM sync": an organization key that reads recordings, never printed (the sample events read, rotate and revoke it). */
  crmSync: 'key_demo_crm_sync',
} as const;

/** Plaintext demo keys, kept in the local data directory only so a restart can print them again. */
export interface DemoCredentials {
  org_id: string;
  org_key: string;
  personal_key: string;
  personal_key_user_id: string;
  /** The CRM sync key's secret (absent in data directories seeded before it existed). */
  crm_sync_key?: string;
}

/** The demo fixture with this data directory's keys: an organization key with every scope, the member's personal key and the CRM sync key. */
export function demoFixture(credentials: DemoCredentials): FixtureInput {
  return {
    ...readDemoFixture(),
    api_keys: [
      { org_id: DEMO_ORG_ID, key: credentials.org_key, scopes: [...SCOPES], id: DEMO_KEY_IDS.org, name: 'Demo organization key' },
      {
        org_id: DEMO_ORG_ID,
        user_id: credentials.personal_key_user_id,
        key: credentials.personal_key,
        scopes: ['recordings:read', 'recordings:write'],
        id: DEMO_KEY_IDS.personal,
        name: "Mia's recorder",
      },
      ...(credentials.crm_sync_key
        ? [
            {
              org_id: DEMO_ORG_ID,
              key: credentials.crm_sync_key,
              scopes: ['recordings:read' as const],
              id: DEMO_KEY_IDS.crmSync,
              name: 'CRM sync',
            },
          ]
        : []),
    ],
  };
}

const CREDENTIALS_FILE = 'demo-credentials.json';

/** The demo member's data export (Get member export's sample). */
export const DEMO_EXPORT_ID = 'exp_demo_member';
/** A completed erasure of an earlier membership of the viewer (Get member erasure's sample reads it). */
export const DEMO_ERASURE_ID = 'era_demo_former_viewer';

export function readDemoCredentials(dataDir: string): DemoCredentials | undefined {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials) : undefined;
}

/** Loads the demo organization with new random keys and webhook secrets, and remembers the keys locally. */
export async function seedDemo(
  deps: { db: TableContext; cipher: ProfileCipher; webhookCipher: WebhookSecretCipher; trashRetentionDays: number },
  dataDir: string,
  now: Date,
): Promise<DemoCredentials> {
  const credentials: DemoCredentials = {
    org_id: DEMO_ORG_ID,
    org_key: generateApiKey('org_key'),
    personal_key: generateApiKey('user_key'),
    personal_key_user_id: DEMO_USERS.member.id,
    crm_sync_key: generateApiKey('org_key'),
  };
  const settings = { db: deps.db, cipher: deps.cipher, models: parseModelCatalog(process.env) };
  await seedFixture(
    { db: deps.db, trashRetentionDays: deps.trashRetentionDays, settings },
    v.parse(Fixture, demoFixture(credentials)),
    now,
  );
  await seedDemoWebhooks({ db: deps.db, cipher: deps.webhookCipher }, DEMO_ORG_ID, now);
  // The member's export the owner asked for: the export consumer writes its ZIP once npm start runs.
  await insertMemberExport(
    deps.db,
    queuedMemberExport({
      id: DEMO_EXPORT_ID,
      orgId: DEMO_ORG_ID,
      userId: DEMO_USERS.member.id,
      includeMedia: false,
      requestedBy: DEMO_USERS.owner.id,
      at: now,
    }),
  );
  await seedCompletedErasure(
    deps.db,
    { orgId: DEMO_ORG_ID, erasureId: DEMO_ERASURE_ID, userId: DEMO_USERS.viewer.id, ownerId: DEMO_USERS.owner.id },
    now,
  );
  writeFileSync(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
