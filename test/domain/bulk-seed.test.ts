import * as v from 'valibot';
import { seedFixture } from '../../shared/domain/admin/fixture';
import { addMember, createOrganization, createUser } from '../../shared/domain/admin/directory';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { Fixture as FixtureSchema, type Fixture, type FixtureInput } from '../../shared/schemas/fixture';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import { findUserIdByEmail, getUser } from '../../shared/storage/users';
import { localDeployment, unique } from '../support/api';

/**
 * seedFixture's bulk path (users, memberships and recordings read and written in batches,
 * counters written once): the counts it leaves are exact when a fixture mixes new entries
 * with stored ones, a second load changes nothing, and refused fixtures write nothing.
 */
const { db } = localDeployment();
const T0 = new Date('2026-03-01T09:00:00.000Z');
const T1 = new Date('2026-03-02T09:00:00.000Z');
const seed = (fixture: FixtureInput, now: Date) => seedFixture({ db }, v.parse(FixtureSchema, fixture) as Fixture, now);
const at = (minute: number) => new Date(T0.getTime() - minute * 60_000).toISOString();

describe('seedFixture in bulk', () => {
  it('keeps every count exact when new entries join stored ones, and a second load reports everything unchanged', async () => {
    const s = unique();
    const org = `org_bulk_${s}`;
    // Stored before the seed: the org with one active member who has one live recording.
    await createOrganization(db, { id: org, name: 'Bulk' }, T0);
    const old = await createUser(db, { id: `usr_bulk_old_${s}`, email: `old.${s}@example.com`, display_name: 'Old' }, T0);
    await addMember(db, { orgId: org, userId: old.user_id, role: 'owner' }, T0);
    await createRecording({ db, now: () => T0 }, {
      id: `rec_bulk_old_${s}`, org_id: org, recorded_by: old.user_id, title: 'Old one', description: '', duration: 5, language: 'en', tags: [], folder_id: null, state: 'ready',
      created_at: at(500), updated_at: at(500), recording_at: at(500), related: { transcript: false, summary: false, action_items: false, translation: false },
    });

    const people = Array.from({ length: 60 }, (_, i) => ({ id: `usr_bulk_${i}_${s}`, email: `Person.${i}.${s}@Example.com`, display_name: `Person ${i}` }));
    const fixture: FixtureInput = {
      orgs: [{ id: org, name: 'Bulk' }],
      users: [{ id: old.user_id, email: old.email, display_name: 'Old' }, ...people],
      memberships: [
        { org_id: org, user_id: old.user_id, role: 'owner' },
        ...people.map((p, i) => ({ org_id: org, user_id: p.id, role: 'member' as const, status: i % 10 === 0 ? ('removed' as const) : ('active' as const) })),
      ],
      tags: [{ id: `tag_bulk_${s}`, org_id: org, user_id: old.user_id, name: 'Tagged', color: '#1f77b4' }],
      recordings: [
        // Two new live recordings of the stored member, one of them newer than what it had.
        { id: `rec_bulk_o1_${s}`, org_id: org, recorded_by: old.user_id, title: 'o1', duration: 1, language: 'en', created_at: at(10) },
        { id: `rec_bulk_o2_${s}`, org_id: org, recorded_by: old.user_id, title: 'o2', duration: 1, language: 'en', created_at: at(900), tags: [`tag_bulk_${s}`] },
        // The stored recording again: left as it is.
        { id: `rec_bulk_old_${s}`, org_id: org, recorded_by: old.user_id, title: 'Old one', duration: 5, language: 'en' },
        ...people.map((p, i) => ({
          id: `rec_bulk_${i}_${s}`, org_id: org, recorded_by: p.id, title: `r${i}`, duration: 1, language: 'en', created_at: at(100 + i),
          ...(i % 7 === 0 ? { deleted_at: T0.toISOString() } : {}),
          ...(i % 3 === 0 ? { summary: { markdown: `s${i}` } } : {}),
        })),
      ],
    };
    const first = await seed(fixture, T1);
    expect(first.users).toEqual({ created: 60, updated: 0, unchanged: 1 });
    expect(first.memberships).toEqual({ created: 60, updated: 0, unchanged: 1 });
    expect(first.recordings).toEqual({ created: 62, updated: 0, unchanged: 1 });

    const trashed = people.filter((_, i) => i % 7 === 0).length;
    const activeNew = people.filter((_, i) => i % 10 !== 0).length;
    expect(await getOrganization(db, org)).toMatchObject({ active_member_count: 1 + activeNew, recording_count: 1 + 2 + 60 - trashed, trash_count: trashed });
    expect(await getMembership(db, org, old.user_id)).toMatchObject({ recording_count: 3, latest_recording_at: at(10) });
    expect(await getMembership(db, org, people[1].id)).toMatchObject({ recording_count: 1, latest_recording_at: at(101), email: `person.1.${s}@example.com` });
    expect(await getMembership(db, org, people[0].id)).toMatchObject({ recording_count: 0, latest_recording_at: null, status: 'removed' });
    expect(await findUserIdByEmail(db, people[5].email)).toBe(people[5].id);

    const second = await seed(fixture, new Date(T1.getTime() + 60_000));
    for (const section of Object.values(second)) expect(section.created + section.updated).toBe(0);
    expect(await getOrganization(db, org)).toMatchObject({ active_member_count: 1 + activeNew, recording_count: 1 + 2 + 60 - trashed, trash_count: trashed });
    expect(await getMembership(db, org, old.user_id)).toMatchObject({ recording_count: 3 });
  });

  it('refuses two users with one email, and an email another user has, before writing any user', async () => {
    const s = unique();
    const taken = await createUser(db, { id: `usr_bulk_taken_${s}`, email: `taken.${s}@example.com`, display_name: 'Taken' }, T0);
    const fresh = { id: `usr_bulk_fresh_${s}`, email: `fresh.${s}@example.com`, display_name: 'Fresh' };
    await expect(seed({ users: [fresh, { id: `usr_bulk_twin_${s}`, email: fresh.email.toUpperCase(), display_name: 'Twin' }] }, T1)).rejects.toMatchObject({
      statusCode: 409,
      code: 'EMAIL_TAKEN',
      message: expect.stringContaining(`already belongs to user ${fresh.id}.`),
    });
    await expect(seed({ users: [fresh, { id: `usr_bulk_other_${s}`, email: taken.email, display_name: 'Other' }] }, T1)).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
    expect(await getUser(db, fresh.id)).toBeUndefined();
  });

  it('handles an id repeated in the fixture as the one-by-one load did: created once, then updated to the later entry', async () => {
    const s = unique();
    const org = `org_bulk_rep_${s}`;
    const user = { id: `usr_bulk_rep_${s}`, email: `rep.${s}@example.com`, display_name: 'First' };
    const summary = await seed(
      {
        orgs: [{ id: org, name: 'Rep' }],
        users: [user, { ...user, display_name: 'Second' }],
        memberships: [
          { org_id: org, user_id: user.id, role: 'member' },
          { org_id: org, user_id: user.id, role: 'admin' },
        ],
      },
      T1,
    );
    expect(summary.users).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(summary.memberships).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(await getUser(db, user.id)).toMatchObject({ display_name: 'Second' });
    expect(await getMembership(db, org, user.id)).toMatchObject({ role: 'admin', display_name: 'Second' });
    expect(await getOrganization(db, org)).toMatchObject({ active_member_count: 1 });
  });
});
