import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyIdFromHash, generateApiKey, hashApiKey } from '../../shared/auth/api-key-secrets';
import type { AuditEntry } from '../../shared/schemas/audit';
import { keys } from '../../shared/storage/keys';
import { call, idTokenFor, localDeployment, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { runCli } from '../support/cli';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * Keys the CLI created before keys were managed through the API exist only as their
 * secret item: the authorizer accepts them, but List API keys did not show them. After
 * `npx voice-org key adopt` (once, after upgrading) they are listed and managed like any
 * other key, and their adoption is no `api_key.created` event (nobody created them now).
 */
const { db, dataDir, runtime } = localDeployment();
const cli = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: dataDir });

/**
 * A key as `voice-org key create` stored it before the key API (`git show 46f18fb^:shared/storage/api-keys.ts`):
 * one item under its hash, indexed by its id (GSI2), with no managed item in its organization.
 */
async function storeAsTheOldCli(
  orgId: string,
  key: string,
  fields: { user_id?: string; scopes: string[]; created_at: string; revoked_at?: string },
) {
  const keyHash = hashApiKey(key);
  const keyId = apiKeyIdFromHash(keyHash);
  await db.client.send(
    new PutCommand({
      TableName: db.tableName,
      Item: {
        PK: `APIKEY#${keyHash}`,
        SK: 'APIKEY',
        GSI2PK: `APIKEYID#${keyId}`,
        GSI2SK: 'APIKEY',
        key_id: keyId,
        key_hash: keyHash,
        org_id: orgId,
        ...fields,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return keyId;
}

describe('keys the CLI created before the key API', () => {
  let o: Awaited<ReturnType<typeof seedOrg>>;
  let ownerToken: string;
  const orgSecret = generateApiKey('org_key');
  const personalSecret = generateApiKey('user_key');
  const ids: Record<'org' | 'personal', string> = { org: '', personal: '' };
  const list = () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/api-keys?limit=100`, { token: ownerToken });

  beforeAll(async () => {
    o = await seedOrg(buildOrg({ label: 'keys_legacy', keys: { audit: { scopes: ['audit:read'] } } }));
    ownerToken = await idTokenFor(o.people.owner);
    ids.org = await storeAsTheOldCli(o.org, orgSecret, { scopes: ['recordings:read'], created_at: '2026-11-02T10:00:00.000Z' });
    ids.personal = await storeAsTheOldCli(o.org, personalSecret, {
      user_id: o.people.member.id,
      scopes: ['recordings:read', 'recordings:write'],
      created_at: '2026-11-03T10:00:00.000Z',
      revoked_at: '2026-11-04T10:00:00.000Z',
    });
  });

  it('work, and `key adopt` adopts them: List API keys then shows them as operator keys, revoked ones included', async () => {
    expect((await call(runtime.apiUrl, 'GET', '/api/v1/public/recordings?limit=1', { token: orgSecret })).status).toBe(200);

    const adopted = await cli('key', 'adopt', '--org', o.org);
    expect({ code: adopted.code, stderr: adopted.stderr }).toEqual({ code: 0, stderr: '' });
    expect(adopted.json).toEqual({
      adopted: expect.arrayContaining([
        { key_id: ids.org, org_id: o.org },
        { key_id: ids.personal, org_id: o.org },
      ]),
      already_managed: 1,
    });
    expect(adopted.json.adopted).toHaveLength(2);

    const listed = (await list()).body.api_keys as Record<string, unknown>[];
    const common = { name: 'Operator key', created_by: null, last_used_at: null, expires_at: null, rotated_at: null, rate_limit: null };
    expect(listed.find((key) => key.id === ids.org)).toEqual({
      ...common,
      id: ids.org,
      kind: 'org',
      prefix: 'pk_',
      scopes: ['recordings:read'],
      user_id: null,
      status: 'active',
      created_at: '2026-11-02T10:00:00.000Z',
      revoked_at: null,
    });
    expect(listed.find((key) => key.id === ids.personal)).toEqual({
      ...common,
      id: ids.personal,
      kind: 'personal',
      prefix: 'pk_user_',
      scopes: ['recordings:read', 'recordings:write'],
      user_id: o.people.member.id,
      status: 'revoked',
      created_at: '2026-11-03T10:00:00.000Z',
      revoked_at: '2026-11-04T10:00:00.000Z',
    });

    // Again: nothing left to adopt.
    const again = await cli('key', 'adopt', '--org', o.org);
    expect(again.json).toEqual({ adopted: [], already_managed: 3 });
  });

  it('an adopted key is managed like any other (revoked through the API), and its adoption was no api_key.created event', async () => {
    // Unstamped, so its stream record is no event (shared/events/change-events.ts).
    const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: keys.apiKey(o.org, ids.org) }));
    expect(Item).toBeDefined();
    expect(Item!.last_change).toBeUndefined();

    const revoked = await call(runtime.apiUrl, 'DELETE', `/api/v1/organization/${o.org}/api-keys/${ids.org}`, { token: ownerToken });
    expect(revoked.body).toMatchObject({ id: ids.org, status: 'revoked', revoked_at: expect.stringMatching(TIMESTAMP) });
    expect((await call(runtime.apiUrl, 'GET', '/api/v1/public/recordings?limit=1', { token: orgSecret })).status).toBe(401);
    // The stream keeps an item's changes in order: once the revocation is in the audit log, an event of the adoption would be too.
    const audit = await eventually(
      () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?resource_id=${ids.org}&limit=50`, { token: o.keys.audit }),
      (r: ApiResponse) => r.status === 200 && r.body.entries?.some((e: AuditEntry) => e.type === 'api_key.revoked'),
    );
    expect(audit.body.entries.map((e: AuditEntry) => e.type)).toEqual(['api_key.revoked']);
  });
});
