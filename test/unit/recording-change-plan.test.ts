import { planRecordingChange } from '../../shared/domain/recordings/recording-changes';
import type { Membership } from '../../shared/storage/membership-items';
import type { Recording } from '../../shared/storage/recording-items';

/**
 * What each recording change moves, as planned before any write: the tag links that make
 * tag filters find live recordings (and only them), the organization's live and trash
 * totals, and the recorder's live count and newest recording. A wrong plan shows in lists
 * and counts, so each transition is checked on its own.
 */
const recording = (fields: Partial<Recording> = {}): Recording => ({
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Standup',
  description: '',
  duration: 60,
  language: 'en',
  tags: ['tag_a', 'tag_b'],
  folder_id: null,
  state: 'ready',
  created_at: '2026-01-10T09:00:00.000Z',
  updated_at: '2026-01-10T09:00:00.000Z',
  recording_at: '2026-01-10T09:00:00.000Z',
  related: { transcript: false, summary: false, action_items: false, translation: false },
  ...fields,
});
const membership = (count: number, latest: string | null): Membership => ({
  org_id: 'org_1',
  user_id: 'usr_1',
  email: 'mo@example.com',
  display_name: 'Mo',
  role: 'member',
  status: 'active',
  member_since: '2025-01-01T00:00:00.000Z',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  recording_count: count,
  latest_recording_at: latest,
});
const live = recording();
const trashed = recording({ deleted_at: '2026-01-11T00:00:00.000Z', updated_at: '2026-01-11T00:00:00.000Z' });

describe('planRecordingChange', () => {
  it('a new live recording: a link per tag, one more live recording, and the recorder adds it to its count and as its newest when it is', () => {
    const plan = planRecordingChange({
      after: live,
      relies: { kind: 'new' },
      recorder: { membership: membership(2, '2026-01-01T00:00:00.000Z') },
    });
    expect(plan.tagLinks).toEqual({ write: ['tag_a', 'tag_b'], remove: [] });
    expect(plan.organizationCounts).toEqual({ live: 1, trash: 0 });
    expect(plan.recorderCounts).toEqual({ kind: 'arrives', userId: 'usr_1', newest: live.created_at });
    expect(plan.relies).toEqual({ kind: 'new' });
  });

  it('an older live recording is added to the count without replacing the newest one the recorder already has', () => {
    const plan = planRecordingChange({
      after: live,
      relies: { kind: 'new' },
      recorder: { membership: membership(1, '2026-06-01T00:00:00.000Z') },
    });
    expect(plan.recorderCounts).toEqual({ kind: 'arrives', userId: 'usr_1' });
  });

  it('a new recording created in the trash: no link, one more in the trash, the recorder untouched', () => {
    const plan = planRecordingChange({ after: trashed, relies: { kind: 'new' }, recorder: { membership: membership(2, null) } });
    expect(plan.tagLinks).toEqual({ write: [], remove: [] });
    expect(plan.organizationCounts).toEqual({ live: 0, trash: 1 });
    expect(plan.recorderCounts).toBeUndefined();
  });

  it('an update rewrites the links of every tag it keeps or gains (they carry the tag set) and removes those it dropped; no count moves', () => {
    const next = recording({ tags: ['tag_b', 'tag_c'], updated_at: '2026-01-12T00:00:00.000Z' });
    const plan = planRecordingChange({
      before: live,
      after: next,
      relies: { kind: 'stored', stillIn: 'LIVE', unchangedSince: live.updated_at },
    });
    expect(plan.tagLinks).toEqual({ write: ['tag_b', 'tag_c'], remove: ['tag_a'] });
    expect(plan.organizationCounts).toEqual({ live: 0, trash: 0 });
    expect(plan.recorderCounts).toBeUndefined();
  });

  it('moving to the trash removes every link, moves one from live to trash, and falls back to the newest other live recording', () => {
    const plan = planRecordingChange({
      before: live,
      after: trashed,
      relies: { kind: 'stored', stillIn: 'LIVE' },
      recorder: { membership: membership(2, live.created_at), newestOtherLiveAt: '2026-01-05T00:00:00.000Z' },
    });
    expect(plan.tagLinks).toEqual({ write: [], remove: ['tag_a', 'tag_b'] });
    expect(plan.organizationCounts).toEqual({ live: -1, trash: 1 });
    expect(plan.recorderCounts).toEqual({
      kind: 'recount',
      userId: 'usr_1',
      read: 2,
      next: 1,
      latestRecordingAt: '2026-01-05T00:00:00.000Z',
    });
  });

  it('the last live recording of a recorder leaves it with none (latest null)', () => {
    const plan = planRecordingChange({
      before: live,
      after: trashed,
      relies: { kind: 'stored', stillIn: 'LIVE' },
      recorder: { membership: membership(1, live.created_at), newestOtherLiveAt: null },
    });
    expect(plan.recorderCounts).toMatchObject({ next: 0, latestRecordingAt: null });
  });

  it('a restore recreates the links and moves one from trash to live', () => {
    const plan = planRecordingChange({
      before: trashed,
      after: live,
      relies: { kind: 'stored', stillIn: 'TRASH' },
      recorder: { membership: membership(0, null) },
    });
    expect(plan.tagLinks).toEqual({ write: ['tag_a', 'tag_b'], remove: [] });
    expect(plan.organizationCounts).toEqual({ live: 1, trash: -1 });
    expect(plan.recorderCounts).toEqual({ kind: 'arrives', userId: 'usr_1', newest: live.created_at });
  });

  it('a permanent delete of a live recording removes its links and one live recording; of a trashed one, one from the trash only (and its trash timer); both leave a tombstone', () => {
    const deletedAt = '2026-01-12T00:00:00.000Z';
    const ofLive = planRecordingChange({
      before: live,
      relies: { kind: 'stored', unchangedSince: live.updated_at },
      recorder: { membership: membership(1, live.created_at), newestOtherLiveAt: null },
      deletedAt,
    });
    expect(ofLive.after).toBeUndefined();
    expect(ofLive.tagLinks).toEqual({ write: [], remove: ['tag_a', 'tag_b'] });
    expect(ofLive.organizationCounts).toEqual({ live: -1, trash: 0 });
    expect(ofLive.recorderCounts).toMatchObject({ next: 0 });
    expect(ofLive.trashTimer).toBeUndefined();
    expect(ofLive.tombstone).toEqual({ deletedAt });

    const ofTrashed = planRecordingChange({ before: trashed, relies: { kind: 'stored', unchangedSince: trashed.updated_at }, deletedAt });
    expect(ofTrashed.tagLinks).toEqual({ write: [], remove: [] });
    expect(ofTrashed.organizationCounts).toEqual({ live: 0, trash: -1 });
    expect(ofTrashed.recorderCounts).toBeUndefined();
    expect(ofTrashed.trashTimer).toBe('remove');
    expect(ofTrashed.tombstone).toEqual({ deletedAt });

    // Without its moment a permanent delete would lose its tombstone, and so its event.
    expect(() => planRecordingChange({ before: trashed, relies: { kind: 'stored' } })).toThrow('needs its moment');
  });

  it('a recording entering the trash gets a timer when given its purge time, and loses it when restored', () => {
    const purgeAt = '2026-02-10T00:00:00.000Z';
    expect(planRecordingChange({ before: live, after: trashed, relies: { kind: 'stored', stillIn: 'LIVE' }, purgeAt }).trashTimer).toEqual({
      set: { purgeAt },
    });
    // A recording created in the trash (a fixture's) is given none.
    expect(planRecordingChange({ after: trashed, relies: { kind: 'new' } }).trashTimer).toBeUndefined();
    expect(planRecordingChange({ before: trashed, after: live, relies: { kind: 'stored', stillIn: 'TRASH' } }).trashTimer).toBe('remove');
    expect(planRecordingChange({ before: live, after: live, relies: { kind: 'stored', stillIn: 'LIVE' } }).trashTimer).toBeUndefined();
  });

  it('leaves the recorder alone when it is no longer a member', () => {
    const plan = planRecordingChange({ before: live, after: trashed, relies: { kind: 'stored', stillIn: 'LIVE' } });
    expect(plan.organizationCounts).toEqual({ live: -1, trash: 1 });
    expect(plan.recorderCounts).toBeUndefined();
  });
});
