import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { runCli } from '../../support/cli';
import { pipelineFiles } from '../../../infra/local/dead-letter-store';
import { PASSAGES_ALIAS } from '../../../shared/search/passage-mapping';
import { readMemberSearchIndex } from '../../../shared/storage/member-search';
import { call, expectFailure, idTokenFor, localDeployment, localS3 } from '../../support/api';
import { eventually } from '../../support/eventually';
import { seedErasureWorld, seedOtherOrganization, type ErasureWorld } from '../../support/erasure-world';

/**
 * Erase member and Get member erasure on the local deployment: the refusals, the second
 * request, and "Nothing is left": after an erasure, every table item, every S3 object, the
 * search index, the event log and the dead-letter store are read, and the person's email,
 * display name, profile text and transcript phrases are found nowhere (in the two-organization
 * case: nowhere but their user, their email guard and the other organization's items).
 */
const { runtime, db, dataDir } = localDeployment();

const erasurePath = (world: ErasureWorld, userId = world.zed.id) => `/api/v1/organization/${world.org.org}/users/${userId}/erasure`;
const ownerToken = async (world: ErasureWorld) => `Bearer ${await idTokenFor(world.org.people.owner)}`;

async function erase(world: ErasureWorld, confirm: string, authorization?: string) {
  return call(runtime.apiUrl, 'POST', erasurePath(world), { authorization: authorization ?? (await ownerToken(world)), body: { confirm } });
}

async function completed(world: ErasureWorld, erasureId: string) {
  const authorization = await ownerToken(world);
  const read = () =>
    call(runtime.apiUrl, 'GET', `/api/v1/organization/${world.org.org}/users/${world.zed.id}/erasures/${erasureId}`, { authorization });
  const done = await eventually(read, (response) => response.body?.data?.status === 'completed', { alsoWaitingMs: 45_000 });
  expect(done.body.data.status).toBe('completed');
  return done.body.data;
}

/** Every item of the table (a Scan: this is a test), as JSON text with its keys. */
async function everyItem(): Promise<{ pk: string; sk: string; text: string }[]> {
  const items: { pk: string; sk: string; text: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(new ScanCommand({ TableName: db.tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) items.push({ pk: String(item.PK), sk: String(item.SK), text: JSON.stringify(item) });
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every object of the bucket under a prefix, with its content. */
async function everyObject(prefix: string): Promise<{ key: string; text: string }[]> {
  const { s3, bucket } = localS3();
  const found: { key: string; text: string }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key! }));
      found.push({ key: object.Key!, text: (await body.Body?.transformToString('latin1')) ?? '' });
    }
    token = page.NextContinuationToken;
  } while (token);
  return found;
}

/** Every passage of the search stand-in's index of the organization. */
async function searchDocuments(orgId: string): Promise<string[]> {
  if (!runtime.searchEndpoint) return [];
  const response = await fetch(`${runtime.searchEndpoint}/${PASSAGES_ALIAS}/_search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ size: 1000, query: { term: { org_id: orgId } } }),
  });
  const body = (await response.json()) as { hits?: { hits?: unknown[] } };
  return (body.hits?.hits ?? []).map((hit) => JSON.stringify(hit));
}

/** What identifies the person: none of it may be left where the erasure reached. */
const needlesOf = (world: ErasureWorld) => [world.zed.email, world.zed.display_name, world.secrets.profile, ...world.secrets.phrases];
const holding = (texts: { where: string; text: string }[], needles: string[]) =>
  texts.flatMap(({ where, text }) =>
    needles.filter((needle) => text.toLowerCase().includes(needle.toLowerCase())).map((needle) => `${where}: ${needle}`),
  );

async function expectNothingLeft(world: ErasureWorld, allowed: (pk: string, sk: string) => boolean) {
  const needles = needlesOf(world);
  const items = (await everyItem()).filter((item) => !allowed(item.pk, item.sk));
  expect(
    holding(
      items.map((item) => ({ where: `${item.pk}|${item.sk}`, text: item.text })),
      needles,
    ),
  ).toEqual([]);
  // Nothing of the member is left under their keys in the organization.
  expect(items.filter((item) => item.pk === `ORG#${world.org.org}` && item.sk.startsWith(`MEMBER#${world.zed.id}`))).toEqual([]);
  const objects = [...(await everyObject(`recordings/${world.org.org}/`)), ...(await everyObject(`exports/${world.org.org}/`))];
  expect(objects.filter((object) => world.zedRecordings.some((id) => object.key.includes(id)))).toEqual([]);
  expect(
    holding(
      objects.map((object) => ({ where: object.key, text: object.text })),
      needles,
    ),
  ).toEqual([]);
  expect(
    holding(
      (await searchDocuments(world.org.org)).map((text) => ({ where: 'search', text })),
      needles,
    ),
  ).toEqual([]);
  // The member search index is compressed: read it decoded.
  const entries = await readMemberSearchIndex(db, world.org.org);
  expect(entries.filter((entry) => entry.user_id === world.zed.id)).toEqual([]);
  const files = pipelineFiles(dataDir);
  const letters = existsSync(files.deadLetters)
    ? readdirSync(files.deadLetters).map((file) => ({ where: file, text: readFileSync(path.join(files.deadLetters, file), 'utf8') }))
    : [];
  expect(holding(letters, needles)).toEqual([]);
  // The bus log: invitation events carry the invitee's address by design (docs/events.md), nothing else may.
  const events = readFileSync(files.events, 'utf8')
    .split('\n')
    .filter((line) => line && !/"type":"invite\./.test(line))
    .map((text, i) => ({ where: `events.jsonl:${i}`, text }));
  expect(holding(events, needles)).toEqual([]);
}

describe('eraseMember', () => {
  it('refuses a wrong confirmation (400 INVALID_CONFIRMATION), the last owner (409 LAST_OWNER) and someone not a member (404)', async () => {
    const world = await seedErasureWorld({ label: 'erar', recordings: 1 });
    expectFailure(await erase(world, 'someone.else@example.com'), 400, 'INVALID_CONFIRMATION');
    const owner = world.org.people.owner;
    const lastOwner = await call(runtime.apiUrl, 'POST', erasurePath(world, owner.id), {
      authorization: await ownerToken(world),
      body: { confirm: owner.email },
    });
    expectFailure(lastOwner, 409, 'LAST_OWNER');
    const stranger = await call(runtime.apiUrl, 'POST', erasurePath(world, 'usr_nobody_here'), {
      authorization: await ownerToken(world),
      body: { confirm: 'nobody@example.com' },
    });
    expectFailure(stranger, 404, 'MEMBER_NOT_FOUND');
  });

  it('refuses a member under a legal hold (409 LEGAL_HOLD, naming the hold)', async () => {
    const world = await seedErasureWorld({ label: 'erah', recordings: 1 });
    const authorization = await ownerToken(world);
    const hold = await call(runtime.apiUrl, 'PUT', `/api/v1/organization/${world.org.org}/users/${world.zed.id}/legal-hold`, {
      authorization,
      body: { reason: 'Dispute 42' },
    });
    expect(hold.status).toBeLessThan(300);
    const refused = await erase(world, world.zed.email);
    expectFailure(refused, 409, 'LEGAL_HOLD');
    expect(refused.body.message).toContain('Dispute 42');
  });

  it('answers the running erasure to a second request (same id), with an org key holding governance:write, and confirms ignoring case', async () => {
    const world = await seedErasureWorld({ label: 'era2', recordings: 2 });
    const first = await erase(world, world.zed.email.toUpperCase());
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ user_id: world.zed.id, status: 'queued', completed_at: null });
    expect(first.body.data.id).toMatch(/^era_/);
    const second = await erase(world, world.zed.email, `Bearer ${world.org.keys.orgKey}`);
    expect(second.status).toBe(202);
    expect(second.body.data.id).toBe(first.body.data.id);
    await completed(world, first.body.data.id);
  });

  it('Nothing is left: a member of one organization', async () => {
    const world = await seedErasureWorld({ label: 'era1' });
    // The owner's recording has its speaker named as the member: their display name is on another's recording.
    const named = await call(runtime.apiUrl, 'PATCH', `/api/v1/organization/${world.org.org}/recordings/${world.ownerRecording}/speakers`, {
      authorization: await ownerToken(world),
      body: { speakers: [{ label: 'Olga', user_id: world.zed.id }] },
    });
    expect(named.body.speakers).toEqual([expect.objectContaining({ name: world.zed.display_name, user_id: world.zed.id })]);
    const started = await erase(world, world.zed.email);
    expect(started.status).toBe(202);
    const erasure = await completed(world, started.body.data.id);
    expect(erasure.counts).toMatchObject({
      recordings: 3,
      action_items_rewritten: 1,
      speakers_renamed: 1,
      tags: 1,
      api_keys: 1,
      invites: 1,
      memberships: 1,
      user_items: 2,
    });
    expect(erasure.counts.settings_items).toBeGreaterThanOrEqual(3);
    await eventually(
      () =>
        expectNothingLeft(world, () => false).then(
          () => true,
          () => false,
        ),
      Boolean,
      { alsoWaitingMs: 15_000 },
    );
    await expectNothingLeft(world, () => false);

    // The owner's action item names "Former member" now, with no user id; the admin's is untouched.
    const recording = await call(
      runtime.apiUrl,
      'GET',
      `/api/v1/organization/${world.org.org}/recordings/${world.ownerRecording}?include=action_items,speakers`,
      {
        authorization: await ownerToken(world),
      },
    );
    const assignees = JSON.stringify(recording.body);
    expect(assignees).toContain('Former member');
    expect(assignees).toContain(world.org.people.admin.display_name);
    expect(recording.body.speakers).toEqual([expect.objectContaining({ label: 'Olga', name: 'Former member', user_id: null })]);

    // What remains: the erasure, and one user.erased audit entry with ids only.
    const authorization = await ownerToken(world);
    const audit = await eventually(
      () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${world.org.org}/audit-log?type=user.erased`, { authorization }),
      (response) => response.body?.entries?.length === 1,
    );
    expect(audit.body.entries[0]).toMatchObject({
      type: 'user.erased',
      actor: { kind: 'user', id: world.org.people.owner.id },
      resource: { type: 'user', id: world.zed.id },
      // Who asked (the actor), which erasure and its counts: no email, no name.
      erasure: { erasure_id: erasure.id, counts: erasure.counts },
    });
    // A person erased is no member any more: a new request is 404.
    expectFailure(await erase(world, world.zed.email), 404, 'MEMBER_NOT_FOUND');
  });

  it('Nothing is left: a member of two organizations keeps their user and their data elsewhere', async () => {
    const world = await seedErasureWorld({ label: 'erab' });
    const other = await seedOtherOrganization('erao', world.zed);
    const started = await erase(world, world.zed.email);
    const erasure = await completed(world, started.body.data.id);
    expect(erasure.counts).toMatchObject({ recordings: 3, memberships: 1, user_items: 0 });
    const allowed = (pk: string) =>
      pk === `USER#${world.zed.id}` || pk === `EMAIL#${world.zed.email}` || pk.startsWith(`ORG#${other.orgId}`);
    await eventually(
      () =>
        expectNothingLeft(world, allowed).then(
          () => true,
          () => false,
        ),
      Boolean,
      { alsoWaitingMs: 15_000 },
    );
    await expectNothingLeft(world, allowed);
    const items = await everyItem();
    expect(items.some((item) => item.pk === `USER#${world.zed.id}`)).toBe(true);
    expect(items.some((item) => item.pk === `ORG#${other.orgId}` && item.sk === `MEMBER#${world.zed.id}`)).toBe(true);
    expect(items.some((item) => item.pk === `ORG#${other.orgId}` && item.sk === `REC#${other.recordingId}`)).toBe(true);
  });
});

describe('getMemberErasure', () => {
  it("is not found for another member's id or an unknown id (404 ERASURE_NOT_FOUND)", async () => {
    const world = await seedErasureWorld({ label: 'erag', recordings: 1 });
    const started = await erase(world, world.zed.email);
    const authorization = await ownerToken(world);
    const base = `/api/v1/organization/${world.org.org}/users`;
    expectFailure(
      await call(runtime.apiUrl, 'GET', `${base}/${world.org.people.admin.id}/erasures/${started.body.data.id}`, { authorization }),
      404,
      'ERASURE_NOT_FOUND',
    );
    expectFailure(
      await call(runtime.apiUrl, 'GET', `${base}/${world.zed.id}/erasures/era_unknown`, { authorization }),
      404,
      'ERASURE_NOT_FOUND',
    );
    await completed(world, started.body.data.id);
  });
});

describe('cli erasure replay', () => {
  it('erases again a person whom a restored backup brought back', async () => {
    const world = await seedErasureWorld({ label: 'erar2', recordings: 2 });
    // The "backup": every item of the organization and of the person, taken before the erasure.
    const { db: table } = localDeployment();
    const backup: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await table.client.send(new ScanCommand({ TableName: table.tableName, ExclusiveStartKey: start }));
      for (const item of page.Items ?? [])
        if (JSON.stringify(item).includes(world.org.org) || JSON.stringify(item).includes(world.zed.id)) backup.push(item);
      start = page.LastEvaluatedKey;
    } while (start);
    const backupTime = new Date().toISOString();
    const started = await erase(world, world.zed.email);
    await completed(world, started.body.data.id);
    // The "restore": the backup's items back in the table (the erasure log, written after it, stays).
    for (const Item of backup) await table.client.send(new PutCommand({ TableName: table.tableName, Item }));
    expect((await everyItem()).some((item) => item.pk === `USER#${world.zed.id}`)).toBe(true);

    const replay = await runCli(['erasure', 'replay', '--since', backupTime], { LOCAL_DATA_DIR: dataDir });
    expect(replay.code).toBe(0);
    const mine = (replay.json as { user_id: string; erasure_id: string; counts: Record<string, number> }[]).filter(
      (entry) => entry.user_id === world.zed.id,
    );
    expect(mine).toEqual([
      expect.objectContaining({ erasure_id: started.body.data.id, counts: expect.objectContaining({ recordings: 2, memberships: 1 }) }),
    ]);
    await eventually(
      () =>
        expectNothingLeft(world, () => false).then(
          () => true,
          () => false,
        ),
      Boolean,
      { alsoWaitingMs: 15_000 },
    );
    await expectNothingLeft(world, () => false);
  });
});
