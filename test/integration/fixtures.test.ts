import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { call, localDeployment } from '../support/api';
import { eventually } from '../support/eventually';
import { runCli } from '../support/cli';
import { repoRoot } from '../support/local-deployment';

/**
 * The fixtures the repository ships load cleanly with `voice-org seed --file fixtures/…`, as
 * docs/fixtures.md shows, and idempotently: a second load changes nothing.
 * (test/unit/fixture-files.test.ts checks them against the Fixture schema.)
 */
const { dataDir, runtime, db } = localDeployment();
const cli = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: dataDir });

/** Every item of an organization's partition, in key order. */
async function orgPartition(orgId: string) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}` },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

type Summary = Record<string, { created: number; updated: number; unchanged: number }>;
const changes = (summary: Summary) => Object.values(summary).reduce((total, section) => total + section.created + section.updated, 0);

describe.each([
  ['demo.json', 'org_demo'],
  ['sample-org.json', 'org_sample'],
])('seed --file fixtures/%s', (file, orgId) => {
  it('loads cleanly, then a second load changes nothing', async () => {
    const fixture = path.join(repoRoot, 'fixtures', file);
    const first = await cli('seed', '--file', fixture);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    const loaded = first.json as Summary;
    expect(changes(loaded)).toBeGreaterThan(0);
    // Invitations are emailed once loaded (the consumer writes their delivery): wait for that before comparing.
    await eventually(
      () => cli('invite', 'list', '--org', orgId, '--status', 'pending'),
      (listed) => listed.json.every((invite: { email_status: string }) => invite.email_status === 'sent'),
    );
    const before = await orgPartition(orgId);
    // Other suites of the shared deployment act on org_demo too: compare with what is there, not with an empty organization.
    const invitesBefore = (await cli('invite', 'list', '--org', orgId)).json as unknown[];
    expect(invitesBefore.length).toBeGreaterThanOrEqual(loaded.invites.created);

    const second = await cli('seed', '--file', fixture);
    expect(second.code).toBe(0);
    expect(changes(second.json as Summary)).toBe(0);
    expect(Object.values(second.json as Summary).map((section) => section.unchanged)).toEqual(
      Object.values(loaded).map((section) => section.created + section.updated + section.unchanged),
    );
    expect(await orgPartition(orgId)).toEqual(before);
    expect((await cli('invite', 'list', '--org', orgId)).json).toEqual(invitesBefore);
  });
});

describe('the sample organization, once loaded', () => {
  it('is what docs/fixtures.md shows: members in every role, pending invitations, a hundred recordings through the API', async () => {
    await cli('seed', '--file', path.join(repoRoot, 'fixtures/sample-org.json'));
    const members = (await cli('member', 'list', '--org', 'org_sample')).json as { role: string }[];
    expect(members.length).toBeGreaterThanOrEqual(30);
    expect(new Set(members.map((member) => member.role))).toEqual(new Set(['owner', 'admin', 'member', 'viewer']));
    expect((await cli('invite', 'list', '--org', 'org_sample', '--status', 'pending')).json.length).toBeGreaterThanOrEqual(3);

    const key = await cli('key', 'create', '--org', 'org_sample', '--scopes', 'recordings:read,templates:read', '--name', 'Fixture test');
    const recordings = await call(runtime.apiUrl, 'GET', '/api/v1/organization/org_sample/recordings?limit=5', { token: key.json.key });
    expect(recordings.status).toBe(200);
    expect(recordings.body.pagination.total).toBeGreaterThanOrEqual(100);
    const templates = await call(runtime.apiUrl, 'GET', '/api/v1/organization/org_sample/templates', { token: key.json.key });
    expect(templates.body.templates.length).toBeGreaterThanOrEqual(3);
    await cli('key', 'revoke', '--id', key.json.key_id);
  });
});
