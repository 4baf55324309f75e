import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { COMMANDS } from '../../infra/cli/commands';
import { call, localDeployment, seed, unique } from '../support/api';
import { eventually } from '../support/eventually';
import { runCli, runCommand } from '../support/cli';

/** The admin CLI against the running local deployment, as an operator uses it. */
const { dataDir, runtime, db } = localDeployment();
const cli = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: dataDir });
const listUsers = (orgId: string, token: string) => call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/users`, { token });

async function orgPartition(orgId: string) {
  const { Items } = await db.client.send(
    new QueryCommand({ TableName: db.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `ORG#${orgId}` } }),
  );
  return Items;
}

describe('cli seed', () => {
  it('loads a fixture, keeps its ids, and changes nothing when loaded again', async () => {
    const id = unique();
    const org = `org_fixture_${id}`;
    const key = `pk_org_fixture${id}${'0'.repeat(20)}`;
    const fixture = {
      orgs: [{ id: org, name: 'Fixture Org' }],
      users: [
        { id: `usr_a_${id}`, email: `a.${id}@example.com`, display_name: 'A Person', timezone: 'Europe/Berlin' },
        { id: `usr_b_${id}`, email: `b.${id}@example.com`, display_name: 'B Person' },
      ],
      memberships: [
        { org_id: org, user_id: `usr_a_${id}`, role: 'owner', status: 'active', member_since: '2024-05-06T07:08:09.000Z' },
        { org_id: org, user_id: `usr_b_${id}`, role: 'member', status: 'pending' },
      ],
      api_keys: [{ org_id: org, key, scopes: ['users:read'] }],
      tags: [{ id: `tag_${id}`, org_id: org, user_id: `usr_a_${id}`, name: 'Calls', color: '#ff8800' }],
      recordings: [
        {
          id: `rec_${id}`,
          org_id: org,
          recorded_by: `usr_a_${id}`,
          title: 'Fixture call',
          duration: 65,
          language: 'en',
          tags: [`tag_${id}`],
          created_at: '2026-01-02T03:04:05.000Z',
          transcript: [{ speaker: 'A', text: 'Hello.', start: 0, end: 1 }],
          summary: { markdown: '# Summary' },
        },
      ],
      settings: [
        {
          org_id: org,
          user_id: `usr_a_${id}`,
          settings: { selected_theme: 'dark', selected_model: 'Sonnet' },
          notifications: { highlight_time: '06:45' },
          profile: '# A\n\nFixture profile.',
          preferences: [{ command: 'summarize', command_type: 'manual', preference_content: 'Short.' }],
        },
      ],
    };
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fixture-')), 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));

    const first = await cli('seed', '--file', file);
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      orgs: { created: 1, updated: 0, unchanged: 0 },
      users: { created: 2, updated: 0, unchanged: 0 },
      memberships: { created: 2, updated: 0, unchanged: 0 },
      api_keys: { created: 1, updated: 0, unchanged: 0 },
      tags: { created: 1, updated: 0, unchanged: 0 },
      templates: { created: 0, updated: 0, unchanged: 0 },
      recordings: { created: 1, updated: 0, unchanged: 0 },
      settings: { created: 1, updated: 0, unchanged: 0 },
      invites: { created: 0, updated: 0, unchanged: 0 },
    });
    const before = await orgPartition(org);

    const second = await cli('seed', '--file', file);
    expect(second.code).toBe(0);
    for (const section of Object.values(second.json as Record<string, Record<string, number>>)) {
      expect(section.created + section.updated).toBe(0);
    }
    expect(await orgPartition(org)).toEqual(before);

    const listed = await listUsers(org, key);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        user_id: `usr_a_${id}`,
        role: 'owner',
        member_since: '2024-05-06T07:08:09.000Z',
        recording_count: 1,
        latest_recording_at: '2026-01-02T03:04:05.000Z',
      }),
    ]);
    const settings = await call(
      runtime.apiUrl,
      'GET',
      `/api/v1/organization/${org}/users/usr_a_${id}/settings?include=profile,preferences`,
      { token: key },
    );
    expect(settings.body.data).toMatchObject({
      settings: { selected_theme: 'dark', selected_model: 'claude-sonnet-4-5' },
      notifications: { highlight_time: '06:45' },
      profile: { profile: '# A\n\nFixture profile.', version: 1 },
      preferences: {
        data: [expect.objectContaining({ preference_content: 'Short.', metadata: expect.objectContaining({ source: 'fixture' }) })],
      },
    });
  });

  it('loads a person who is an active member of two organizations', async () => {
    const id = unique();
    const [first, second] = [`org_two_a_${id}`, `org_two_b_${id}`];
    const person = { id: `usr_two_${id}`, email: `two.${id}@example.com`, display_name: 'Two Orgs' };
    const fixture = {
      orgs: [
        { id: first, name: 'First' },
        { id: second, name: 'Second' },
      ],
      users: [person],
      memberships: [
        { org_id: first, user_id: person.id, role: 'owner', status: 'active' },
        { org_id: second, user_id: person.id, role: 'admin', status: 'active' },
      ],
    };
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fixture-')), 'two-orgs.json');
    writeFileSync(file, JSON.stringify(fixture));

    const loaded = await cli('seed', '--file', file);
    expect(loaded.json).toMatchObject({
      orgs: { created: 2 },
      users: { created: 1 },
      memberships: { created: 2, updated: 0, unchanged: 0 },
    });
    expect(loaded.code).toBe(0);
    const token = (await cli('token', '--user', person.id)).json.id_token;
    for (const orgId of [first, second])
      expect((await listUsers(orgId, token)).body.data).toEqual([expect.objectContaining({ user_id: person.id })]);
  });

  it('refuses an invalid fixture with a JSON error naming the field, and writes nothing', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'fixture-')), 'bad.json');
    const org = `org_bad_${unique()}`;
    writeFileSync(file, JSON.stringify({ orgs: [{ id: org, name: 'Bad' }], memberships: [{ org_id: org, user_id: 'u', role: 'boss' }] }));
    const result = await cli('seed', '--file', file);
    expect(result.code).not.toBe(0);
    expect(result.json).toEqual({ error: 'INVALID_FIXTURE', message: expect.stringContaining('memberships[0].role') });
    expect(await orgPartition(org)).toEqual([]);
  });
});

describe('cli commands build an organization and its credentials', () => {
  it('org, user, member, key and token work together with the API', async () => {
    const org = await cli('org', 'create', '--name', 'CLI Org');
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({ org_id: expect.stringMatching(/^org_/), name: 'CLI Org', active_member_count: 0 });
    const email = `Owner.${unique()}@Example.com`;
    const user = await cli('user', 'create', '--email', email, '--name', 'Cli Owner', '--timezone', 'Asia/Kolkata');
    expect(user.json).toMatchObject({ user_id: expect.stringMatching(/^usr_/), email: email.toLowerCase(), timezone: 'Asia/Kolkata' });
    const member = await cli('member', 'add', '--org', org.json.org_id, '--user', user.json.user_id, '--role', 'owner');
    expect(member.json).toMatchObject({ org_id: org.json.org_id, user_id: user.json.user_id, role: 'owner', status: 'active' });

    const key = await cli('key', 'create', '--org', org.json.org_id, '--scopes', 'users:read,users:write');
    expect(key.json).toEqual({ key_id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^pk_org_[0-9a-f]{48}$/) });
    expect((await listUsers(org.json.org_id, key.json.key)).body.pagination.total).toBe(1);

    const personal = await cli('key', 'create', '--org', org.json.org_id, '--user', user.json.user_id, '--scopes', 'recordings:write');
    expect(personal.json.key).toMatch(/^pk_user_/);
    expect((await listUsers(org.json.org_id, personal.json.key)).body.error).toBe('USER_KEY_NOT_ALLOWED');

    const token = await cli('token', '--user', user.json.user_id);
    expect((await listUsers(org.json.org_id, token.json.id_token)).status).toBe(200);
    // The operator's keys are managed keys: the owner sees them through the API, named.
    const named = await cli('key', 'create', '--org', org.json.org_id, '--scopes', 'audit:read', '--name', 'Bootstrap export');
    const listed = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org.json.org_id}/api-keys`, { token: token.json.id_token });
    expect(listed.body.api_keys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: named.json.key_id, name: 'Bootstrap export', created_by: null }),
        expect.objectContaining({ id: key.json.key_id, name: 'Operator key', kind: 'org' }),
      ]),
    );
    const expired = await cli('token', '--user', user.json.user_id, '--expires-in=-30');
    expect((await listUsers(org.json.org_id, expired.json.id_token)).status).toBe(401);

    const revoked = await cli('key', 'revoke', '--id', key.json.key_id);
    expect(revoked.json).toEqual({ key_id: key.json.key_id, revoked_at: expect.any(String) });
    expect((await listUsers(org.json.org_id, key.json.key)).status).toBe(401);
  });

  it('fails with a JSON error on stderr and a non-zero exit', async () => {
    const badRole = await cli('member', 'add', '--org', 'org_x', '--user', 'usr_x', '--role', 'boss');
    expect(badRole.code).not.toBe(0);
    expect(badRole.json).toEqual({ error: 'VALIDATION_ERROR', message: expect.stringContaining('role') });
    expect(badRole.stdout).toBe('');

    const unknownOrg = await cli('member', 'add', '--org', `org_none_${unique()}`, '--user', 'usr_x', '--role', 'admin');
    expect(unknownOrg.json.error).toBe('ORG_NOT_FOUND');
    const duplicateEmail = await cli('user', 'create', '--email', 'dup@example.com', '--name', 'Dup');
    const again = await cli('user', 'create', '--email', 'DUP@example.com', '--name', 'Dup');
    expect([duplicateEmail.code, again.code].sort()).toEqual([0, 1]);
    expect(again.json.error).toBe('USER_EXISTS');
    expect((await cli('launch', 'rockets')).json.error).toBe('UNKNOWN_COMMAND');
    expect((await cli('key', 'create', '--org', 'org_x', '--scopes', 'users:fly')).json.error).toBe('VALIDATION_ERROR');
  });

  it('acts on a deployed table when TABLE_NAME is set (here pointed at the local DynamoDB)', async () => {
    const aws = {
      TABLE_NAME: runtime.tableName,
      DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
      AWS_REGION: runtime.region,
      LOCAL_DATA_DIR: '/nonexistent',
    };
    const user = await runCli(['user', 'create', '--email', `aws.${unique()}@example.com`, '--name', 'Aws Person'], aws);
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ display_name: 'Aws Person', timezone: 'UTC' });
    const token = await runCli(['token', '--user', user.json.user_id], aws);
    expect(token.json.error).toBe('LOCAL_ONLY');
  });

  it('says so when no local deployment runs on the data directory', async () => {
    const result = await runCli(['org', 'create', '--name', 'X'], { LOCAL_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'empty-')) });
    expect(result.code).not.toBe(0);
    expect(result.json.error).toBe('LOCAL_NOT_RUNNING');
  });
});

describe('cli reindex', () => {
  it("builds an older organization's member search index, day counts and templates' order keys, after which q, date totals and List templates read them", async () => {
    const orgId = `org_cli_reindex_${unique()}`;
    await seed(db, {
      orgs: [{ id: orgId, name: 'Older org' }],
      users: [
        { id: `usr_ri_a_${orgId}`, email: `ada.${orgId}@example.com`, display_name: 'Ada Reindex' },
        { id: `usr_ri_b_${orgId}`, email: `bo.${orgId}@example.com`, display_name: 'Bo Reindex' },
      ],
      memberships: [
        { org_id: orgId, user_id: `usr_ri_a_${orgId}`, role: 'owner' },
        { org_id: orgId, user_id: `usr_ri_b_${orgId}`, role: 'member' },
      ],
      recordings: [
        {
          id: `rec_ri_${orgId}`,
          org_id: orgId,
          recorded_by: `usr_ri_a_${orgId}`,
          title: 'Old',
          duration: 1,
          language: 'en',
          created_at: '2026-02-03T04:05:06.000Z',
        },
        {
          id: `rec_ri_bin_${orgId}`,
          org_id: orgId,
          recorded_by: `usr_ri_a_${orgId}`,
          title: 'Binned',
          duration: 1,
          language: 'en',
          created_at: '2026-02-04T04:05:06.000Z',
          deleted_at: '2026-02-05T00:00:00.000Z',
        },
      ],
      templates: ['Retro board', 'Retro'].map((name, i) => ({
        id: `tpl_ri_${i}_${orgId}`,
        org_id: orgId,
        name,
        sections: [{ title: 'Notes', prompt: 'Write notes.' }],
      })),
    });
    // As an organization created before the page indexes is stored: no marks; its templates as before the name-order keys (`<lower name>#<id>`, no GSI3 entry);
    // and a recording trashed before the event pipeline: no timer, no purge date.
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { PK: `ORG#${orgId}`, SK: 'ORG' },
        UpdateExpression: 'REMOVE member_search_index_at, recording_days_index_at, templates_index_at',
      }),
    );
    for (const [i, name] of ['retro board', 'retro'].entries()) {
      const id = `tpl_ri_${i}_${orgId}`;
      const Key = { PK: `ORG#${orgId}`, SK: `TEMPLATE#${id}` };
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key,
          UpdateExpression: 'SET GSI1SK = :old REMOVE GSI3PK, GSI3SK',
          ExpressionAttributeValues: { ':old': `${name}#${id}` },
        }),
      );
    }
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { PK: `ORG#${orgId}`, SK: `REC#rec_ri_bin_${orgId}` },
        UpdateExpression: 'REMOVE purge_at',
      }),
    );
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: { PK: `ORG#${orgId}`, SK: `TRASHTIMER#rec_ri_bin_${orgId}` } }));

    const result = await cli('reindex', '--org', orgId);
    expect(result.code).toBe(0);
    expect(result.json).toEqual({
      org_id: orgId,
      member_search: { entries: 2, shards: expect.any(Number) },
      recording_day_counts: { recordings: 2, items: 3 },
      templates: { templates: 2, rewritten: 2 },
      trash_timers: { recordings: 1, timers_written: 1, purge_at_copied: 0 },
    });
    // Trashed long ago: its timer runs out a day after reindex set it.
    const timer = (await orgPartition(orgId))?.find((item) => item.SK === `TRASHTIMER#rec_ri_bin_${orgId}`);
    expect(Date.parse(timer?.purge_at) - Date.now()).toBeGreaterThan(86_400_000 - 10 * 60_000);
    expect((await cli('reindex', '--org', orgId)).json.trash_timers).toEqual({ recordings: 1, timers_written: 0, purge_at_copied: 0 });
    const org = (await orgPartition(orgId))?.find((item) => item.SK === 'ORG');
    expect(org).toMatchObject({
      member_search_index_at: expect.any(String),
      recording_days_index_at: expect.any(String),
      templates_index_at: expect.any(String),
    });
    const token = (await cli('token', '--user', `usr_ri_a_${orgId}`)).json.id_token;
    const searched = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/users?q=bo%20re`, { token });
    expect(searched.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([`usr_ri_b_${orgId}`]);
    const ranged = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/recordings?startDate=2026-02-01&endDate=2026-02-28`, {
      token,
    });
    expect(ranged.body.pagination.total).toBe(1);
    // 'Retro' before 'Retro board', from the rewritten keys: page 2 reads one template.
    const templates = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${orgId}/templates?page=2&limit=1`, { token });
    expect(templates.body).toMatchObject({ templates: [{ name: 'Retro board' }], pagination: { page: 2, limit: 1, total: 2 } });

    expect((await cli('reindex', '--org', 'org_missing_reindex')).json).toEqual({ error: 'ORG_NOT_FOUND', message: expect.any(String) });
  });
});

describe('cli mail list', () => {
  it('prints what the local SES received, filtered by recipient', async () => {
    const to = `mail.${unique()}@example.com`;
    const sent = await fetch(`${runtime.sesEndpoint}/v2/email/outbound-emails`, {
      method: 'POST',
      // The emulator wants some credential, as SES would; any will do.
      headers: {
        'content-type': 'application/json',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/ses/aws4_request',
      },
      body: JSON.stringify({
        FromEmailAddress: 'noreply@voice-org.example',
        Destination: { ToAddresses: [to] },
        Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'plain' }, Html: { Data: '<p>html</p>' } } } },
      }),
    });
    expect(sent.ok).toBe(true);
    const mail = await cli('mail', 'list', '--to', to);
    expect(mail.json).toEqual([
      { to: [to], from: 'noreply@voice-org.example', subject: 'Hello', text: 'plain', html: '<p>html</p>', sent_at: expect.any(String) },
    ]);
    expect(Math.abs(Date.parse(mail.json[0].sent_at) - Date.now())).toBeLessThan(60_000);
  });
});

describe('cli command line', () => {
  // Help and command-line errors come before the CLI looks for a deployment: none runs here.
  const offline = (...args: string[]) => runCli(args, { LOCAL_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'no-deployment-')) });

  // Every command's help and refusals are parsed in process by test/unit/cli-command-line.test.ts;
  // here the CLI runs as a process: help on stdout with exit 0, refusals as JSON on stderr with exit 1.
  it('--help prints the usage of every command on stdout and exits 0, as does <command> --help', async () => {
    const [all, command] = await Promise.all([offline('--help'), offline('user', 'create', '-h')]);
    expect({ code: all.code, stderr: all.stderr }).toEqual({ code: 0, stderr: '' });
    expect(all.stdout).toMatch(/^Usage: npx voice-org <command> \[flags\]/);
    for (const name of Object.keys(COMMANDS)) expect(all.stdout).toContain(`  ${name} `);
    expect(all.stdout).toContain('user create --email E --name N [--timezone Z] [--id ID]');
    expect({ code: command.code, stderr: command.stderr }).toEqual({ code: 0, stderr: '' });
    expect(command.stdout).toMatch(/^Usage: npx voice-org user create /);
  });

  it('prints the commands of a group for <group> --help', async () => {
    const group = await offline('key', '--help');
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('key create --org O [--user U] --scopes a,b [--name N]');
    expect(group.stdout).toContain('key revoke --id K');
    expect(group.stdout).not.toContain('user create');
  });

  it("refuses an unknown flag by name, with the command's usage, and does nothing", async () => {
    const email = `timezone.${unique()}@example.com`;
    const typo = await cli('user', 'create', '--email', email, '--name', 'Typo', '--timezon', 'Europe/Paris');
    expect({ code: typo.code, stdout: typo.stdout }).toEqual({ code: 1, stdout: '' });
    expect(typo.json).toEqual({
      error: 'UNKNOWN_FLAG',
      message: 'Unknown flag --timezon for user create.',
      usage: 'Usage: npx voice-org user create --email E --name N [--timezone Z] [--id ID]',
    });
    // Nothing was created: the same email is still free, and the right flag is used.
    const created = await cli('user', 'create', '--email', email, '--name', 'Typo', '--timezone', 'Europe/Paris');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ email, timezone: 'Europe/Paris' });
  });

  it('refuses a missing value and a missing command as JSON on stderr with the usage, exit 1', async () => {
    const [missing, none] = await Promise.all([offline('key', 'revoke', '--id'), offline()]);
    expect({ code: missing.code, stdout: missing.stdout }).toEqual({ code: 1, stdout: '' });
    expect(missing.json).toEqual({
      error: 'MISSING_VALUE',
      message: expect.stringContaining('--id needs a value.'),
      usage: 'Usage: npx voice-org key revoke --id K',
    });
    expect(none.code).toBe(1);
    expect(none.json).toMatchObject({
      error: 'UNKNOWN_COMMAND',
      message: 'No command given.',
      usage: expect.stringContaining('user create'),
    });
  });
});

describe('the voice-org bin', () => {
  it("`npx voice-org` resolves the package's own bin in the repository and prints only JSON on stdout", async () => {
    // As a user runs it: npx, in the repository, with no tsx or SDK setting of the test's own.
    const npx = (...args: string[]) =>
      runCommand('npx', ['voice-org', ...args], {
        LOCAL_DATA_DIR: dataDir,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined,
        npm_config_update_notifier: 'false',
      });
    const org = await npx('org', 'create', '--name', 'Npx Org');
    expect(org.code).toBe(0);
    // The whole of stdout is the result: no npm banner, no notice.
    expect(JSON.parse(org.stdout)).toMatchObject({ org_id: expect.stringMatching(/^org_/), name: 'Npx Org' });
    expect(org.stderr).not.toMatch(/NodeDeprecationWarning|AWS SDK|tsx/i);

    const refused = await npx('org', 'create', '--nmae', 'X');
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: '' });
    expect(JSON.parse(refused.stderr.split('\n').find((line) => line.startsWith('{'))!)).toMatchObject({ error: 'UNKNOWN_FLAG' });

    const help = await npx('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx voice-org <command> \[flags\]/);
  });
});

describe('cli key list, member list, invite list', () => {
  const id = unique();
  const org = `org_lists_${id}`;
  const owner = { id: `usr_owner_${id}`, email: `owner.${id}@example.com` };
  const orgKey = `pk_org_lists${id}${'0'.repeat(20)}`;
  const ownerToken = async () => (await cli('token', '--user', owner.id)).json.id_token as string;
  const ready = (async () => {
    await seed(db, {
      orgs: [{ id: org, name: 'Lists Org' }],
      users: [
        { id: owner.id, email: owner.email, display_name: 'Owner' },
        ...['b', 'c', 'd'].map((name) => ({
          id: `usr_${name}_${id}`,
          email: `${name}.${id}@example.com`,
          display_name: name.toUpperCase(),
        })),
      ],
      memberships: [
        { org_id: org, user_id: owner.id, role: 'owner' },
        { org_id: org, user_id: `usr_b_${id}`, role: 'member' },
        { org_id: org, user_id: `usr_c_${id}`, role: 'viewer' },
        { org_id: org, user_id: `usr_d_${id}`, role: 'member', status: 'pending' },
      ],
      api_keys: [{ org_id: org, key: orgKey, scopes: ['users:read', 'invites:read', 'invites:write'] }],
    });
    const personal = await cli('key', 'create', '--org', org, '--user', `usr_b_${id}`, '--scopes', 'recordings:read', '--name', 'B laptop');
    const revoked = await cli('key', 'create', '--org', org, '--scopes', 'users:read', '--name', 'Old export');
    await cli('key', 'revoke', '--id', revoked.json.key_id);
    for (const who of ['x', 'y']) {
      const sent = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${org}/invites`, {
        token: orgKey,
        body: { email: `${who}.${id}@example.com`, role: 'member' },
      });
      expect(sent.status).toBe(201);
    }
    return { personal: personal.json.key_id as string, revoked: revoked.json.key_id as string };
  })();

  it("key list prints every key as List API keys shows them, newest first, never a secret; --user only that member's", async () => {
    const { personal, revoked } = await ready;
    const [listed, api] = await Promise.all([
      cli('key', 'list', '--org', org),
      call(runtime.apiUrl, 'GET', `/api/v1/organization/${org}/api-keys?limit=100`, { token: await ownerToken() }),
    ]);
    expect(listed.code).toBe(0);
    expect(listed.json).toEqual(api.body.api_keys);
    expect(listed.json).toHaveLength(3);
    expect(listed.json).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: personal, kind: 'personal', name: 'B laptop', status: 'active' }),
        expect.objectContaining({ id: revoked, status: 'revoked' }),
      ]),
    );
    expect(listed.stdout).not.toContain(orgKey);
    expect(listed.stdout).not.toMatch(/"(secret|key|key_hash)"/);

    const own = await cli('key', 'list', '--org', org, '--user', `usr_b_${id}`);
    expect(own.json.map((key: { id: string }) => key.id)).toEqual([personal]);
  });

  it('member list prints every active member as List users shows them (pending ones are not members yet)', async () => {
    await ready;
    const [listed, api] = await Promise.all([
      cli('member', 'list', '--org', org),
      call(runtime.apiUrl, 'GET', `/api/v1/organization/${org}/users?limit=100`, { token: orgKey }),
    ]);
    expect(listed.code).toBe(0);
    expect(listed.json).toEqual(api.body.data);
    expect(listed.json.map((member: { user_id: string; role: string }) => [member.user_id, member.role])).toEqual([
      [`usr_b_${id}`, 'member'],
      [`usr_c_${id}`, 'viewer'],
      [owner.id, 'owner'],
    ]);
  });

  it('invite list prints every invitation as List invites shows them (never a token); --status filters', async () => {
    await ready;
    // Wait for the emails, so that both listings see the same delivery state.
    const emailed = await eventually(
      () => cli('invite', 'list', '--org', org),
      (result) => result.json?.every((invite: { email_status: string }) => invite.email_status === 'sent'),
    );
    const api = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${org}/invites?limit=100`, { token: orgKey });
    expect(emailed.json).toEqual(api.body.invites);
    expect(emailed.json.map((invite: { email: string }) => invite.email)).toEqual([`y.${id}@example.com`, `x.${id}@example.com`]);
    expect(emailed.stdout).not.toMatch(/token/);
    expect((await cli('invite', 'list', '--org', org, '--status', 'accepted')).json).toEqual([]);
    expect((await cli('invite', 'list', '--org', org, '--status', 'pending')).json).toHaveLength(2);
    expect((await cli('invite', 'list', '--org', org, '--status', 'lost')).json).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('status'),
    });
  });

  it('an organization that does not exist is ORG_NOT_FOUND, not an empty list', async () => {
    const results = await Promise.all([
      cli('key', 'list', '--org', `org_none_${id}`),
      cli('member', 'list', '--org', `org_none_${id}`),
      cli('invite', 'list', '--org', `org_none_${id}`),
    ]);
    for (const result of results) {
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' });
      expect(result.json.error).toBe('ORG_NOT_FOUND');
    }
  });
});
