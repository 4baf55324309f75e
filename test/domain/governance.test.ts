import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Caller } from '../../shared/auth/policy';
import { effectiveHold, memberUnderHold } from '../../shared/domain/governance/hold-checks';
import { placeMemberHold, placeRecordingHold, releaseMemberHold, releaseRecordingHold } from '../../shared/domain/governance/legal-holds';
import { cutoffDay, getRetention, sweepOrganization, sweepRetention, updateRetention } from '../../shared/domain/governance/retention';
import { deleteRecording, softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { expireTrashedRecording } from '../../shared/domain/recordings/expire-trashed-recording';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { Fixture } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { listRetentionPolicies } from '../../shared/storage/retention';
import { getRecording } from '../../shared/storage/recordings';
import { localDeployment, unique } from '../support/api';
import { domainEvent } from '../support/events';

/**
 * Retention and legal holds on the local table, with an injected clock: the sweep moves what is
 * older than the policy (counted from recording_at, else created_at) by whole UTC days, skips and
 * counts held recordings, builds the index for an organization that predates it, and a held
 * recording refuses every delete and survives the trash's purge until released.
 */
const { db } = localDeployment();
const TRASH_DAYS = 30;
const DAY = 86_400_000;
// Years ahead, as the other domain suites: no TTL sweep on the real clock reaches these timers.
const NOW = new Date('2038-03-10T12:00:00.000Z');
const agoFrom = (base: Date, days: number) => new Date(base.getTime() - days * DAY).toISOString();
const at = (time: Date) => ({ db, now: () => time, trashRetentionDays: TRASH_DAYS });
const deps = at(NOW);

async function organization(base = NOW) {
  const ago = (days: number) => agoFrom(base, days);
  const id = unique();
  const orgId = `org_gov_${id}`;
  const owner = `usr_gov_owner_${id}`;
  const member = `usr_gov_member_${id}`;
  const recording = (name: string, by: string, createdDaysAgo: number, recordedDaysAgo?: number) => ({
    id: `rec_${name}_${id}`,
    org_id: orgId,
    recorded_by: by,
    title: name,
    duration: 10,
    language: 'en',
    created_at: ago(createdDaysAgo),
    ...(recordedDaysAgo === undefined ? {} : { recording_at: ago(recordedDaysAgo) }),
  });
  const recordings = [
    recording('ancient', owner, 400),
    recording('old', owner, 100),
    // Uploaded 5 days ago, recorded 200 days ago: retention counts from when it was recorded.
    recording('late_upload', owner, 5, 200),
    recording('recent', owner, 10),
    recording('held', owner, 300),
    recording('members_old', member, 150),
  ];
  await seedFixture(
    { db, trashRetentionDays: TRASH_DAYS },
    v.parse(Fixture, {
      orgs: [{ id: orgId, name: 'Governance' }],
      users: [
        { id: owner, email: `owner.${id}@example.com`, display_name: 'Owner' },
        { id: member, email: `member.${id}@example.com`, display_name: 'Member' },
      ],
      memberships: [
        { org_id: orgId, user_id: owner, role: 'owner' },
        { org_id: orgId, user_id: member, role: 'member' },
      ],
      recordings,
    }),
    base,
  );
  const ownerCaller: Caller = { kind: 'id_token', orgId, userId: owner, role: 'owner', actor: owner };
  const ids = Object.fromEntries(recordings.map((r) => [r.title, r.id])) as Record<string, string>;
  return { orgId, owner, member, ownerCaller, ids };
}

const isTrashed = async (orgId: string, recordingId: string) => Boolean((await getRecording(db, orgId, recordingId))?.deleted_at);

describe('the retention policy', () => {
  it('is null until set, and set and lifted through the registry the daily sweep reads', async () => {
    const { orgId, ownerCaller, owner } = await organization();
    expect(await getRetention(deps, orgId)).toEqual({ recordings_days: null, updated_at: null, updated_by: null });
    expect(await updateRetention(deps, ownerCaller, 90)).toEqual({ recordings_days: 90, updated_at: NOW.toISOString(), updated_by: owner });
    expect(await getRetention(deps, orgId)).toEqual({ recordings_days: 90, updated_at: NOW.toISOString(), updated_by: owner });
    expect(await listRetentionPolicies(db)).toContainEqual({ org_id: orgId, recordings_days: 90 });
    await updateRetention(deps, ownerCaller, null);
    expect((await getRetention(deps, orgId)).recordings_days).toBeNull();
    expect((await listRetentionPolicies(db)).map((policy) => policy.org_id)).not.toContain(orgId);
  });

  it('moves nothing at request time; the sweep moves what is older, counted from recording_at, and keeps held ones', async () => {
    const { orgId, ownerCaller, ids } = await organization();
    await placeRecordingHold(deps, ownerCaller, ids.held, 'Dispute 7');
    await updateRetention(deps, ownerCaller, 90);
    expect(await isTrashed(orgId, ids.ancient)).toBe(false);

    const sweep = await sweepOrganization(deps, orgId);
    expect(sweep).toEqual({
      org_id: orgId,
      recordings_days: 90,
      cutoff_day: cutoffDay(NOW, 90),
      moved: 4,
      held: 1,
      skipped: 0,
      indexed: 0,
    });
    for (const name of ['ancient', 'old', 'late_upload', 'members_old']) expect(await isTrashed(orgId, ids[name])).toBe(true);
    for (const name of ['recent', 'held']) expect(await isTrashed(orgId, ids[name])).toBe(false);
    // Moved as the trash moves: a purge date after the trash's retention.
    expect((await getRecording(db, orgId, ids.old))?.purge_at).toBe(new Date(NOW.getTime() + TRASH_DAYS * DAY).toISOString());

    // A second sweep the same day finds only the held one.
    expect(await sweepOrganization(deps, orgId)).toMatchObject({ moved: 0, held: 1 });
    // 81 days later the recent one (10 days old today) is past 90 days; a shorter policy takes effect at the sweep.
    expect(await sweepOrganization(at(new Date(NOW.getTime() + 80 * DAY)), orgId)).toMatchObject({ moved: 0 });
    await updateRetention(deps, ownerCaller, 5);
    expect(await isTrashed(orgId, ids.recent)).toBe(false);
    expect(await sweepOrganization(deps, orgId)).toMatchObject({ moved: 1, held: 1, cutoff_day: cutoffDay(NOW, 5) });
  });

  it('counts whole UTC days: a recording exactly N days old on the cutoff day is kept until the next day', async () => {
    expect(cutoffDay(new Date('2038-03-10T00:00:00.000Z'), 90)).toBe('2037-12-10');
    expect(cutoffDay(new Date('2038-03-10T23:59:59.999Z'), 1)).toBe('2038-03-09');
  });

  it('sweeps every organization with a policy, and leaves one without alone', async () => {
    // Every organization of the shared table with a policy is swept: at a time before any other suite's
    // recordings were made (theirs are from today or years ahead), nothing of theirs has expired.
    const past = new Date('2021-06-01T12:00:00.000Z');
    const [withPolicy, without] = [await organization(past), await organization(past)];
    await updateRetention(at(past), withPolicy.ownerCaller, 365);
    const sweeps = await sweepRetention(at(past));
    expect(sweeps.find((s) => s.org_id === withPolicy.orgId)).toMatchObject({ moved: 1 });
    expect(sweeps.map((s) => s.org_id)).not.toContain(without.orgId);
    expect(sweeps.filter((s) => s.org_id !== withPolicy.orgId).every((s) => s.moved === 0)).toBe(true);
    expect(await sweepRetention(at(past), { orgId: without.orgId })).toEqual([
      expect.objectContaining({ recordings_days: null, moved: 0 }),
    ]);
    await updateRetention(at(past), withPolicy.ownerCaller, null);
  });

  it('gives an organization that predates the retention index its keys at its first sweep', async () => {
    const { orgId, ownerCaller, ids } = await organization();
    // As an organization and recordings written before the index existed: no mark, no index keys.
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.organization(orgId), UpdateExpression: 'REMOVE retention_index_at' }),
    );
    for (const id of Object.values(ids))
      await db.client.send(
        new UpdateCommand({ TableName: db.tableName, Key: keys.recording(orgId, id), UpdateExpression: 'REMOVE GSI3PK, GSI3SK' }),
      );
    await updateRetention(deps, ownerCaller, 90);
    expect(await sweepOrganization(deps, orgId)).toMatchObject({ indexed: 6, moved: 5, held: 0 });
    const { Items } = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'GSI3',
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.recordingRetentionIndex(orgId).GSI3PK },
      }),
    );
    // What is left in the index is the live one; the trashed left it when they moved.
    expect(Items?.map((item) => item.SK)).toEqual([`REC#${ids.recent}`]);
    expect(await sweepOrganization(deps, orgId)).toMatchObject({ indexed: 0, moved: 0 });
  });
});

describe('legal holds', () => {
  it('refuse every delete of a held recording with 409 LEGAL_HOLD naming the hold, until released', async () => {
    const { orgId, ownerCaller, ids, owner } = await organization();
    const hold = await placeRecordingHold(deps, ownerCaller, ids.old, 'Litigation 24-1187');
    expect(hold).toEqual({ reason: 'Litigation 24-1187', placed_by: owner, placed_at: NOW.toISOString(), scope: 'recording' });
    for (const permanent of [false, true])
      await expect(deleteRecording(deps, orgId, ids.old, { permanent })).rejects.toMatchObject({
        statusCode: 409,
        code: 'LEGAL_HOLD',
        message: expect.stringContaining('Litigation 24-1187'),
      });
    // A new reason keeps the first placement.
    const later = at(new Date(NOW.getTime() + DAY));
    expect(await placeRecordingHold(later, ownerCaller, ids.old, 'Litigation 24-1188')).toMatchObject({ placed_at: NOW.toISOString() });
    await releaseRecordingHold(deps, ownerCaller, ids.old);
    expect(await effectiveHold(db, (await getRecording(db, orgId, ids.old))!)).toBeNull();
    await softDeleteRecording(deps, orgId, ids.old);
    expect(await isTrashed(orgId, ids.old)).toBe(true);
  });

  it("hold a member's recordings, now and later, and name the member's hold", async () => {
    const { orgId, ownerCaller, ids, member } = await organization();
    expect(await memberUnderHold(db, orgId, member)).toBeNull();
    expect(await placeMemberHold(deps, ownerCaller, member, 'HR investigation')).toMatchObject({ scope: 'member' });
    expect(await memberUnderHold(db, orgId, member)).toMatchObject({ reason: 'HR investigation' });
    await expect(softDeleteRecording(deps, orgId, ids.members_old)).rejects.toMatchObject({
      code: 'LEGAL_HOLD',
      message: expect.stringContaining("its recorder's legal hold"),
    });
    await releaseMemberHold(deps, ownerCaller, member);
    expect(await memberUnderHold(db, orgId, member)).toBeNull();
    await softDeleteRecording(deps, orgId, ids.members_old);
    // A released hold placed again is a new hold.
    expect(await placeMemberHold(at(new Date(NOW.getTime() + DAY)), ownerCaller, member, 'Again')).toMatchObject({
      placed_at: new Date(NOW.getTime() + DAY).toISOString(),
    });
  });

  it('say a member is under hold when one of their recordings is, and refuse a hold on someone who never was a member', async () => {
    const { orgId, ownerCaller, ids, owner } = await organization();
    await placeRecordingHold(deps, ownerCaller, ids.recent, 'Audit');
    expect(await memberUnderHold(db, orgId, owner)).toMatchObject({ reason: 'Audit', recording_id: ids.recent });
    await expect(placeMemberHold(deps, ownerCaller, 'usr_nobody', 'x')).rejects.toMatchObject({
      statusCode: 404,
      code: 'MEMBER_NOT_FOUND',
    });
    await expect(placeRecordingHold(deps, ownerCaller, 'rec_nothing', 'x')).rejects.toMatchObject({ statusCode: 404 });
  });

  it("stop the trash's purge: the timer is set a day later, and the purge follows the release", async () => {
    const { orgId, ownerCaller, ids } = await organization();
    await softDeleteRecording(deps, orgId, ids.old);
    await placeRecordingHold(deps, ownerCaller, ids.old, 'Found in the trash');
    const due = new Date(NOW.getTime() + (TRASH_DAYS + 1) * DAY);
    const event = domainEvent({ type: 'recording.retention_due', org_id: orgId, resource: { type: 'recording', id: ids.old } });
    expect(await expireTrashedRecording(at(due), event)).toBe('held');
    expect((await getRecording(db, orgId, ids.old))?.purge_at).toBe(new Date(due.getTime() + DAY).toISOString());
    await releaseRecordingHold(deps, ownerCaller, ids.old);
    expect(await expireTrashedRecording(at(new Date(due.getTime() + DAY)), event)).toBe('deleted');
    expect(await getRecording(db, orgId, ids.old)).toBeUndefined();
  });
});
