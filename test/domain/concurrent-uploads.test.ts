import { createRecording } from '../../shared/domain/recordings/recording-changes';
import { softDeleteRecording } from '../../shared/domain/recordings/delete-recording';
import { getMembership } from '../../shared/storage/memberships';
import { getOrganization } from '../../shared/storage/organizations';
import type { Recording } from '../../shared/storage/recording-items';
import { localDeployment, seed, unique } from '../support/api';

/**
 * One member's many recordings at once (a script uploading a folder): every one commits,
 * and the counts are exact. An arriving recording adds to the recorder's count as it
 * stands, so the uploads do not race on it; its newest recording is the latest created_at
 * whatever order they commit in. Recordings leaving the live list meanwhile recount.
 */
const { db } = localDeployment();
const NOW = new Date('2036-05-01T00:00:00.000Z');
const deps = { db, now: () => NOW, trashRetentionDays: 30 };
const NO_RELATED = { transcript: false, summary: false, action_items: false, translation: false };

it('commits 60 concurrent recordings of one member, 10 of them trashed as they land, with exact counts and the newest one', async () => {
  const id = unique();
  const orgId = `org_dburst_${id}`;
  const userId = `usr_dburst_${id}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Burst ${id}` }],
    users: [{ id: userId, email: `burst.${id}@example.com`, display_name: 'Uploader' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' as const }],
  });
  // created_at out of commit order: the newest is not the last sent.
  const moments = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2036, 3, 1) + ((i * 37) % 60) * 60_000).toISOString());
  const recordings: Recording[] = moments.map((at, i) => ({
    id: `rec_dburst_${i}_${id}`,
    org_id: orgId,
    recorded_by: userId,
    title: `Upload ${i}`,
    description: '',
    duration: 1,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'pending_upload',
    created_at: at,
    updated_at: at,
    recording_at: at,
    related: NO_RELATED,
  }));
  const trashed = new Set(recordings.filter((_, i) => i % 6 === 5).map((r) => r.id));
  await Promise.all(
    recordings.map(async (recording) => {
      await createRecording(deps, recording);
      if (trashed.has(recording.id)) await softDeleteRecording(deps, orgId, recording.id);
    }),
  );
  const live = recordings.filter((r) => !trashed.has(r.id));
  const membership = await getMembership(db, orgId, userId, { consistent: true });
  expect(membership?.recording_count).toBe(live.length);
  expect(membership?.latest_recording_at).toBe(
    live
      .map((r) => r.created_at)
      .sort()
      .at(-1),
  );
  const org = await getOrganization(db, orgId);
  expect({ live: org?.recording_count, trash: org?.trash_count }).toEqual({ live: live.length, trash: trashed.size });
}, 120_000);
