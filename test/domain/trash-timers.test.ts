import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { rebuildDerivedIndexes } from '../../shared/operator-tasks/derived-indexes';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { LATE_TIMER_GRACE_MS, latePurgeAt } from '../../shared/operator-tasks/trash-timers';
import { pageOfRecordings } from '../../shared/domain/recordings/list-recordings';
import { restoreRecording } from '../../shared/domain/recordings/restore-recording';
import { softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { expireTrashedRecording } from '../../shared/domain/recordings/expire-trashed-recording';
import { Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { keys } from '../../shared/storage/keys';
import { getRecording } from '../../shared/storage/recordings';
import { trashTimerFromItem } from '../../shared/storage/trash-timers';
import { localDeployment, unique } from '../support/api';
import { domainEvent } from '../support/events';

/**
 * Every recording in the trash has a trash timer: those loaded in the trash by a
 * fixture get one from the seed, those trashed before the event pipeline (or loaded by an
 * older seed) from `reindex` or the next seed, at max(deleted_at + retention, now + grace);
 * the recording shows its timer's purge date, and a second run moves no timer.
 */
const { db } = localDeployment();
const RETENTION_DAYS = 30;
const DAY = 86_400_000;
// Years ahead, as test/domain/recordings.test.ts: no TTL sweep on the real clock reaches these timers.
const NOW = new Date('2037-06-01T12:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const iso = (ms: number) => new Date(ms).toISOString();
const seedAt = (fixture: FixtureInput, now: Date) =>
  seedFixture({ db, trashRetentionDays: RETENTION_DAYS }, v.parse(Fixture, fixture), now);
const reindex = (orgId: string, now: Date) => rebuildDerivedIndexes(db, orgId, now, { force: true, trashRetentionDays: RETENTION_DAYS });
const at = (time: Date) => ({ db, now: () => time, trashRetentionDays: RETENTION_DAYS });

async function timerOf(orgId: string, recordingId: string) {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.trashTimer(orgId, recordingId), ConsistentRead: true }),
  );
  return Item && { ...trashTimerFromItem(Item), expires_at_epoch: Item.expires_at_epoch };
}

/** An organization with one member and recordings: `recent` trashed 2 days before NOW, `old` 90 days before, `live` not. */
function fixtureOf() {
  const id = unique();
  const orgId = `org_timers_${id}`;
  const userId = `usr_timers_${id}`;
  const recording = (name: string, deletedAt?: number) => ({
    id: `rec_${name}_${id}`,
    org_id: orgId,
    recorded_by: userId,
    title: name,
    duration: 10,
    language: 'en',
    created_at: iso(NOW.getTime() - 100 * DAY),
    ...(deletedAt === undefined ? {} : { deleted_at: iso(deletedAt) }),
  });
  const fixture = {
    orgs: [{ id: orgId, name: 'Timers' }],
    users: [{ id: userId, email: `timers.${id}@example.com`, display_name: 'Timers' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'admin' as const }],
    recordings: [recording('recent', NOW.getTime() - 2 * DAY), recording('old', NOW.getTime() - 90 * DAY), recording('live')],
  };
  const [recent, old, live] = fixture.recordings.map((r) => r.id);
  return { fixture, orgId, recent, old, live };
}

/** The trash as List recordings reads it (the recording items, with their purge dates). */
async function trashList(orgId: string) {
  const { recordings } = await pageOfRecordings(db, { filter: { orgId, bin: 'TRASH', tagMode: 'any' }, page: 1, limit: 100 });
  return Object.fromEntries(recordings.map((recording) => [recording.id, recording.purge_at]));
}

describe('latePurgeAt', () => {
  it('is the retention after deleted_at, but no sooner than the grace after now', () => {
    expect(LATE_TIMER_GRACE_MS).toBe(DAY);
    expect(latePurgeAt(iso(NOW.getTime() - 2 * DAY), NOW, RETENTION_DAYS)).toBe(iso(NOW.getTime() + 28 * DAY));
    expect(latePurgeAt(iso(NOW.getTime() - 90 * DAY), NOW, RETENTION_DAYS)).toBe(iso(NOW.getTime() + DAY));
    expect(latePurgeAt(iso(NOW.getTime() - 29 * DAY - 1), NOW, RETENTION_DAYS)).toBe(iso(NOW.getTime() + DAY));
    expect(latePurgeAt(iso(NOW.getTime() - 29 * DAY + 1), NOW, RETENTION_DAYS)).toBe(iso(NOW.getTime() + DAY + 1));
  });
});

describe('trash timers of recordings trashed without one', () => {
  it('a fixture loads a recording in the trash with its timer, purge_at = max(deleted_at + retention, now + grace); a second load moves none', async () => {
    const { fixture, orgId, recent, old, live } = fixtureOf();
    await seedAt(fixture, NOW);
    const wanted = { [recent]: iso(NOW.getTime() + 28 * DAY), [old]: iso(NOW.getTime() + DAY) };
    for (const [recordingId, purgeAt] of Object.entries(wanted)) {
      expect(await timerOf(orgId, recordingId)).toEqual({
        org_id: orgId,
        recording_id: recordingId,
        deleted_at: fixture.recordings.find((r) => r.id === recordingId)!.deleted_at,
        purge_at: purgeAt,
        expires_at_epoch: Date.parse(purgeAt) / 1000,
      });
    }
    expect(await timerOf(orgId, live)).toBeUndefined();
    expect(await trashList(orgId)).toEqual(wanted);

    // A week later, again: nothing moves.
    await seedAt(fixture, later(7 * DAY));
    expect(await trashList(orgId)).toEqual(wanted);
    expect((await timerOf(orgId, old))?.purge_at).toBe(wanted[old]);
    expect((await reindex(orgId, later(7 * DAY))).trash_timers).toEqual({ recordings: 2, timers_written: 0, purge_at_copied: 0 });
  });

  it('reindex sets the timers of recordings trashed before there were any, and the purge dates of timers set before recordings showed them', async () => {
    const { fixture, orgId, recent, old, live } = fixtureOf();
    await seedAt({ ...fixture, recordings: fixture.recordings.map(({ deleted_at: _deletedAt, ...live }) => live) }, NOW);
    // Trashed through the API a month ago, then stored as before trash timers: the timer, but no purge date on the recording.
    const monthAgo = new Date(NOW.getTime() - 31 * DAY);
    await softDeleteRecording(at(monthAgo), orgId, recent);
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.recording(orgId, recent), UpdateExpression: 'REMOVE purge_at' }),
    );
    // Trashed before the event pipeline: no timer at all.
    await softDeleteRecording(at(monthAgo), orgId, old);
    await db.client.send(
      new UpdateCommand({ TableName: db.tableName, Key: keys.recording(orgId, old), UpdateExpression: 'REMOVE purge_at' }),
    );
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: keys.trashTimer(orgId, old) }));
    const apiTimer = await timerOf(orgId, recent);
    expect(await trashList(orgId)).toEqual({ [recent]: undefined, [old]: undefined });

    expect((await reindex(orgId, NOW)).trash_timers).toEqual({ recordings: 2, timers_written: 1, purge_at_copied: 1 });
    expect(await timerOf(orgId, recent)).toEqual(apiTimer);
    expect(await timerOf(orgId, old)).toMatchObject({ deleted_at: monthAgo.toISOString(), purge_at: iso(NOW.getTime() + DAY) });
    expect(await trashList(orgId)).toEqual({ [recent]: apiTimer?.purge_at, [old]: iso(NOW.getTime() + DAY) });
    expect(await timerOf(orgId, live)).toBeUndefined();

    // Again, later: every timer stays where it is.
    expect((await reindex(orgId, later(DAY / 2))).trash_timers).toEqual({ recordings: 2, timers_written: 0, purge_at_copied: 0 });
    expect((await timerOf(orgId, old))?.purge_at).toBe(iso(NOW.getTime() + DAY));
  });

  it('the purge date shown is when the timer deletes: a late timer is not set again, a raised retention moves both', async () => {
    const { fixture, orgId, recent, old } = fixtureOf();
    await seedAt(fixture, NOW);
    const due = (recordingId: string) =>
      domainEvent({ type: 'recording.retention_due', org_id: orgId, resource: { type: 'recording', id: recordingId } });
    // The late timer runs out a day after the seed: the retention deletes the recording then.
    expect(await expireTrashedRecording(at(later(DAY)), due(old))).toBe('deleted');
    expect(await getRecording(db, orgId, old)).toBeUndefined();
    // The retention raised to 60 days before the timer ran out: the timer and the date shown move together.
    const raised = iso(Date.parse(fixture.recordings[0].deleted_at!) + 60 * DAY);
    expect(await expireTrashedRecording({ ...at(later(28 * DAY)), trashRetentionDays: 60 }, due(recent))).toBe('not_due');
    expect((await timerOf(orgId, recent))?.purge_at).toBe(raised);
    expect(await trashList(orgId)).toEqual({ [recent]: raised });
  });

  it('trashing sets the purge date with the timer; restoring takes both away', async () => {
    const { fixture, orgId, live } = fixtureOf();
    await seedAt(fixture, NOW);
    await softDeleteRecording(at(NOW), orgId, live);
    expect((await getRecording(db, orgId, live))?.purge_at).toBe(iso(NOW.getTime() + RETENTION_DAYS * DAY));
    expect((await timerOf(orgId, live))?.purge_at).toBe(iso(NOW.getTime() + RETENTION_DAYS * DAY));
    await restoreRecording(at(later(DAY)), orgId, live);
    const restored = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.recording(orgId, live), ConsistentRead: true }),
    );
    expect(restored.Item).not.toHaveProperty('purge_at');
    expect(await timerOf(orgId, live)).toBeUndefined();
  });
});
