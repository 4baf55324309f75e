import { parseModelCatalog } from '../../shared/config';
import type { OrgKeyCaller } from '../../shared/auth/policy';
import { createMemberExport, queuedMemberExport } from '../../shared/domain/exports/create-member-export';
import { deleteMemberExports } from '../../shared/domain/exports/delete-member-exports';
import { getMemberExport } from '../../shared/domain/exports/get-member-export';
import { runMemberExport, type ExportRunDeps } from '../../shared/domain/exports/run-member-export';
import { memberExportEvents } from '../../shared/events/export-events';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { memberExportObjectKey, type MemberExport } from '../../shared/storage/member-export-items';
import { getMemberExport as readExport, insertMemberExport } from '../../shared/storage/member-exports';
import { localProfileCipher } from '../../infra/local/profile-key';
import { listObjects, localDeployment } from '../support/api';
import {
  jsonFile,
  localExportObjects,
  memberCaller,
  seedExportWorld,
  setRecordingFields,
  unzip,
  type ExportWorld,
} from '../support/member-exports';

/**
 * The member export's domain functions called directly on the local deployment: who may ask,
 * what a read answers, and the consumer writing the ZIP (its files, the decrypted profile, the
 * audio, a redelivery, a member gone), and the erasure's deletion. The deployment's own
 * consumer also sees the items written here: exports the tests run themselves are written
 * `running` under the test's own event id, so the deployment's consumer leaves them alone.
 */
const { dataDir, db } = localDeployment();
const objects = localExportObjects();
const runDeps = (now = new Date()): ExportRunDeps => ({
  db,
  objects,
  cipher: localProfileCipher(dataDir),
  models: parseModelCatalog({}),
  now: () => now,
  auditRetentionDays: null,
});
const LAST = { attempt: 3, last: true };
const FIRST = { attempt: 1, last: false };

let seq = 0;
/** An export this test runs: written as claimed by its own event, so only this test's run writes it. */
async function claimedExport(world: ExportWorld, includeMedia: boolean): Promise<{ record: MemberExport; event: DomainEvent }> {
  const id = `exp_dom_${Date.now().toString(16)}${(seq++).toString(16)}`;
  const eventId = `evt_${id
    .slice(-12)
    .padStart(32, '0')
    .replace(/[^0-9a-f]/g, '0')}`;
  const queued = queuedMemberExport({
    id,
    orgId: world.orgId,
    userId: world.member.id,
    includeMedia,
    requestedBy: world.owner.id,
    at: new Date(),
  });
  const record: MemberExport = { ...queued, status: 'running', started_at: queued.created_at, run_event_id: eventId };
  await insertMemberExport(db, record);
  const event: DomainEvent = {
    id: eventId,
    type: 'user.export_requested',
    occurred_at: record.created_at,
    org_id: world.orgId,
    actor: { kind: 'user', id: world.owner.id },
    correlation_id: null,
    resource: { type: 'user', id: world.member.id },
    data: { export_id: id, include_media: includeMedia },
  };
  return { record, event };
}

async function downloaded(key: string): Promise<Buffer> {
  const stream = await objects.openObject(key);
  if (!stream) throw new Error(`no object at ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('createMemberExport', () => {
  let world: ExportWorld;
  beforeAll(async () => {
    world = await seedExportWorld(db, { recordings: 1, media: false });
  });
  const deps = { db, now: () => new Date() };

  it.each([
    ['an owner', 'owner', 'owner'],
    ['an admin', 'admin', 'admin'],
    ['the member themselves', 'member', 'member'],
  ] as const)('queues an export asked for by %s', async (_label, who, role) => {
    const record = await createMemberExport(deps, memberCaller(world, world[who], role), world.member.id, { include_media: true });
    expect(record).toMatchObject({ status: 'queued', user_id: world.member.id, include_media: true, requested_by: world[who].id });
    expect(record.id).toMatch(/^exp_[0-9a-f]{20}$/);
    expect(await readExport(db, world.orgId, world.member.id, record.id)).toEqual(record);
  });

  it('queues one asked for by an organization key, naming the key', async () => {
    const key: OrgKeyCaller = { kind: 'org_key', orgId: world.orgId, keyId: 'key_exp', scopes: ['governance:write'], actor: 'key_exp' };
    expect(await createMemberExport(deps, key, world.member.id, { include_media: false })).toMatchObject({ requested_by: 'key_exp' });
  });

  it("refuses another member's data below admin, and a person who is not an active member", async () => {
    await expect(
      createMemberExport(deps, memberCaller(world, world.other, 'member'), world.member.id, { include_media: false }),
    ).rejects.toMatchObject({
      statusCode: 403,
      code: 'INSUFFICIENT_ROLE',
    });
    await expect(
      createMemberExport(deps, memberCaller(world, world.owner, 'owner'), 'usr_nobody_here', { include_media: false }),
    ).rejects.toMatchObject({
      statusCode: 404,
      code: 'MEMBER_NOT_FOUND',
    });
  });
});

describe('runMemberExport and getMemberExport', () => {
  let world: ExportWorld;
  beforeAll(async () => {
    world = await seedExportWorld(db, { recordings: 2, media: true });
    // The second recording is in the trash: still the member's data.
    await setRecordingFields(db, world.orgId, world.recordingIds[1], { deleted_at: '2026-11-05T00:00:00.000Z' });
  });

  it('writes the ZIP with every file, the decrypted profile and the audio, then completes', async () => {
    const { record, event } = await claimedExport(world, true);
    const outcome = await runMemberExport(runDeps(), event, FIRST);
    expect(outcome).toMatchObject({ kind: 'completed', counts: { recordings: 2, media_files: 2, assigned_action_items: 1, api_keys: 0 } });
    const stored = (await readExport(db, world.orgId, world.member.id, record.id))!;
    expect(stored).toMatchObject({ status: 'completed', object_key: memberExportObjectKey(world.orgId, world.member.id, record.id) });
    expect(stored.expires_at! > stored.finished_at!).toBe(true);

    const zip = await downloaded(stored.object_key!);
    expect(zip.length).toBe(stored.size_bytes);
    const files = unzip(zip);
    const [live, trashed] = world.recordingIds;
    expect([...files.keys()].sort()).toEqual(
      [
        'README.md',
        'user.json',
        'settings.json',
        'preferences.json',
        `recordings/${live}/recording.json`,
        `recordings/${live}/summaries.json`,
        `recordings/${live}/media/call-0.m4a`,
        `recordings/${trashed}/recording.json`,
        `recordings/${trashed}/summaries.json`,
        `recordings/${trashed}/media/call-1.m4a`,
        'action-items-assigned.json',
        'audit-log.json',
        'api-keys.json',
        'manifest.json',
      ].sort(),
    );
    expect(jsonFile(files, 'settings.json').profile).toEqual({ profile: world.profile, version: 1 });
    expect(jsonFile(files, 'user.json').user).toMatchObject({ user_id: world.member.id, email: world.member.email });
    expect(jsonFile(files, 'preferences.json')).toEqual([expect.objectContaining({ command: 'Keep summaries short' })]);
    expect(jsonFile(files, `recordings/${live}/recording.json`).transcript[0].text).toContain('Phrase number 0');
    expect(jsonFile(files, `recordings/${trashed}/recording.json`)).toMatchObject({ deleted_at: '2026-11-05T00:00:00.000Z' });
    expect(files.get(`recordings/${live}/media/call-0.m4a`)).toEqual(world.media);
    expect(jsonFile(files, 'action-items-assigned.json')).toEqual([
      expect.objectContaining({ recording_id: world.othersRecordingId, text: 'Mia sends the deck', assignee: world.member.id }),
    ]);
    expect(jsonFile(files, 'manifest.json')).toMatchObject({
      export_id: record.id,
      counts: outcome.kind === 'completed' ? outcome.counts : {},
    });

    // A redelivery of the same event changes nothing.
    expect(await runMemberExport(runDeps(), event, FIRST)).toEqual({ kind: 'skipped', why: 'finished' });

    // Read: a download URL signed now, good for 15 minutes, that fetches the same ZIP.
    const now = new Date();
    const read = await getMemberExport(
      { db, objects, now: () => now },
      memberCaller(world, world.member, 'member'),
      world.member.id,
      record.id,
    );
    expect(read.download?.expiresAt).toBe(new Date(now.getTime() + 900_000).toISOString());
    const response = await fetch(read.download!.url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(zip);
  });

  it('leaves the audio out without include_media', async () => {
    const { event } = await claimedExport(world, false);
    expect(await runMemberExport(runDeps(), event, FIRST)).toMatchObject({ kind: 'completed', counts: { media_files: 0 } });
  });

  it('fails an export whose member left before it ran, and a last delivery that fails; a read shows no URL', async () => {
    const gone = await seedExportWorld(db, { recordings: 0, media: false });
    const { record, event } = await claimedExport(gone, false);
    await setMembershipStatus(gone, 'removed');
    expect(await runMemberExport(runDeps(), event, FIRST)).toEqual({ kind: 'failed', error: 'member_not_found' });
    const caller = memberCaller(gone, gone.owner, 'owner');
    const read = await getMemberExport({ db, objects, now: () => new Date() }, caller, gone.member.id, record.id);
    expect(read.record).toMatchObject({ status: 'failed', error: 'member_not_found' });
    expect(read.download).toBeUndefined();

    const failing = await claimedExport(world, false);
    const broken: ExportRunDeps = { ...runDeps(), objects: { ...objects, uploadStream: () => Promise.reject(new Error('S3 down')) } };
    await expect(runMemberExport(broken, failing.event, FIRST)).rejects.toThrow('S3 down');
    expect(await runMemberExport(broken, failing.event, LAST)).toEqual({ kind: 'failed', error: 'internal_error' });
  });

  it('answers 404 for an unknown export, and for one past its expiry', async () => {
    const { record, event } = await claimedExport(world, false);
    await runMemberExport(runDeps(), event, FIRST);
    const caller = memberCaller(world, world.admin, 'admin');
    await expect(getMemberExport({ db, objects, now: () => new Date() }, caller, world.member.id, 'exp_unknown')).rejects.toMatchObject({
      code: 'EXPORT_NOT_FOUND',
    });
    const later = new Date(Date.now() + 8 * 86_400_000);
    await expect(getMemberExport({ db, objects, now: () => later }, caller, world.member.id, record.id)).rejects.toMatchObject({
      code: 'EXPORT_NOT_FOUND',
    });
  });

  it('deleteMemberExports removes every export item and ZIP of the member', async () => {
    const { event } = await claimedExport(world, false);
    await runMemberExport(runDeps(), event, FIRST);
    const prefix = `exports/${world.orgId}/${world.member.id}/`;
    expect((await listObjects(prefix)).length).toBeGreaterThan(0);
    expect(await deleteMemberExports({ db, objects }, world.orgId, world.member.id)).toBeGreaterThan(0);
    expect(await listObjects(prefix)).toEqual([]);
    expect(await deleteMemberExports({ db, objects }, world.orgId, world.member.id)).toBe(0);
  });
});

describe('the export events', () => {
  const record = queuedMemberExport({
    id: 'exp_e',
    orgId: 'org_e',
    userId: 'usr_e',
    includeMedia: true,
    requestedBy: 'usr_o',
    at: new Date(0),
  });
  it('are user.export_requested on the insert and user.export_completed on completion, ids only', () => {
    expect(memberExportEvents({ after: { value: record } })).toMatchObject([
      { type: 'user.export_requested', resource: { type: 'user', id: 'usr_e' }, data: { export_id: 'exp_e', include_media: true } },
    ]);
    const running = { ...record, status: 'running' as const };
    expect(memberExportEvents({ before: { value: record }, after: { value: running } })).toEqual([]);
    const completed = { ...running, status: 'completed' as const, size_bytes: 42 };
    expect(memberExportEvents({ before: { value: running }, after: { value: completed } })).toMatchObject([
      { type: 'user.export_completed', data: { export_id: 'exp_e', size_bytes: 42 } },
    ]);
    expect(memberExportEvents({ before: { value: running }, after: { value: { ...running, status: 'failed' as const } } })).toEqual([]);
  });
});

async function setMembershipStatus(world: ExportWorld, status: string) {
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { keys } = await import('../../shared/storage/keys');
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.membership(world.orgId, world.member.id),
      UpdateExpression: 'SET #s = :s REMOVE GSI1PK, GSI1SK',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':s': status },
    }),
  );
}
