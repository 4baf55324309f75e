import { eventsOfRecord } from '../../shared/events/change-events';
import { keys } from '../../shared/storage/keys';
import { streamRecord } from '../support/stream-records';

/**
 * The events of retention and legal holds, derived from the stream (docs/events.md): each from
 * the change of its item, with the writer's actor, and never a hold's reason.
 */
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-01T11:00:00.000Z';
const actor = { kind: 'user' as const, id: 'usr_owner' };
const stamp = (id: string, extra: Record<string, unknown> = {}, who: typeof actor | null = actor) => ({
  last_change: { id, actor: who, correlation_id: `corr-${id}`, ...extra },
});
const eventsOf = (name: 'INSERT' | 'MODIFY' | 'REMOVE', before?: Record<string, unknown>, after?: Record<string, unknown>) =>
  eventsOfRecord(streamRecord(name, before, after, { at: T1 })).map(({ type, actor: by, resource, data }) => ({
    type,
    actor: by,
    resource,
    data,
  }));

const recording = (fields: Record<string, unknown> = {}) => ({
  ...keys.recording('org_a', 'rec_1'),
  id: 'rec_1',
  org_id: 'org_a',
  recorded_by: 'usr_rec',
  title: 'Standup',
  description: '',
  duration: 0,
  language: 'en',
  tags: [],
  folder_id: null,
  state: 'ready',
  created_at: T0,
  updated_at: T0,
  recording_at: '2025-01-02T09:00:00.000Z',
  related: { transcript: false, summary: false, action_items: false, translation: false },
  ...fields,
});
const hold = { reason: 'Case 12 (secret words)', placed_by: 'usr_owner', placed_at: T1 };

describe('retention and legal hold events', () => {
  it('a recording trashed by the retention sweep says retention_expired first, with no actor', () => {
    const events = eventsOf(
      'MODIFY',
      recording(stamp('a')),
      recording({ ...stamp('b', { reason: 'retention_policy' }, null), deleted_at: T1, updated_at: T1 }),
    );
    expect(events.filter((event) => event.type !== 'recording.index_due')).toEqual([
      {
        type: 'recording.retention_expired',
        actor: null,
        resource: { type: 'recording', id: 'rec_1' },
        data: { recorded_by: 'usr_rec', state: 'ready', retention_day: '2025-01-02' },
      },
      {
        type: 'recording.trashed',
        actor: null,
        resource: { type: 'recording', id: 'rec_1' },
        data: { recorded_by: 'usr_rec', state: 'ready' },
      },
    ]);
    // Trashed by a request: only the usual event.
    const byRequest = eventsOf('MODIFY', recording(stamp('a')), recording({ ...stamp('b'), deleted_at: T1 }));
    expect(byRequest.map((event) => event.type)).not.toContain('recording.retention_expired');
  });

  it("a recording's hold placed, its reason changed, and released; never the reason", () => {
    const placed = eventsOf('MODIFY', recording(stamp('a')), recording({ ...stamp('b'), legal_hold: hold, updated_at: T1 }));
    expect(placed).toEqual([
      {
        type: 'recording.legal_hold_placed',
        actor,
        resource: { type: 'recording', id: 'rec_1' },
        data: { recorded_by: 'usr_rec', state: 'ready', placed_by: 'usr_owner', placed_at: T1 },
      },
    ]);
    const changed = eventsOf(
      'MODIFY',
      recording({ ...stamp('b'), legal_hold: hold }),
      recording({ ...stamp('c'), legal_hold: { ...hold, reason: 'Other' } }),
    );
    expect(changed.map((event) => event.type)).toEqual(['recording.legal_hold_placed']);
    const released = eventsOf('MODIFY', recording({ ...stamp('c'), legal_hold: hold }), recording(stamp('d')));
    expect(released.map((event) => [event.type, event.actor])).toEqual([['recording.legal_hold_released', actor]]);
    expect(JSON.stringify([placed, changed, released])).not.toContain('secret');
  });

  it("a member's hold placed and released (the release keeps the item, stamped)", () => {
    const item = (fields: Record<string, unknown>) => ({
      ...keys.memberLegalHold('org_a', 'usr_m'),
      org_id: 'org_a',
      user_id: 'usr_m',
      ...hold,
      ...fields,
    });
    expect(eventsOf('INSERT', undefined, item(stamp('a')))).toEqual([
      {
        type: 'member.legal_hold_placed',
        actor,
        resource: { type: 'member', id: 'usr_m' },
        data: { user_id: 'usr_m', placed_by: 'usr_owner', placed_at: T1 },
      },
    ]);
    expect(eventsOf('MODIFY', item(stamp('a')), item({ ...stamp('b'), released_at: T1 }))).toEqual([
      { type: 'member.legal_hold_released', actor, resource: { type: 'member', id: 'usr_m' }, data: { user_id: 'usr_m' } },
    ]);
    // Released again, or unchanged: nothing.
    expect(eventsOf('MODIFY', item({ ...stamp('b'), released_at: T1 }), item({ ...stamp('c'), released_at: T1 }))).toEqual([]);
    expect(eventsOf('MODIFY', item(stamp('a')), item(stamp('b')))).toEqual([]);
    // The recordings' entries of the same partition are no event's subject.
    expect(
      eventsOf('INSERT', undefined, { ...keys.recordingLegalHold('org_a', 'rec_1'), recording_id: 'rec_1', recorded_by: 'usr_m', ...hold }),
    ).toEqual([]);
  });

  it('the retention policy set and lifted; counter moves of the organization say nothing', () => {
    const org = (fields: Record<string, unknown>) => ({
      ...keys.organization('org_a'),
      org_id: 'org_a',
      name: 'A',
      active_member_count: 1,
      created_at: T0,
      updated_at: T0,
      ...fields,
    });
    const policy = (days?: number) => ({
      ...(days === undefined ? {} : { recordings_days: days }),
      updated_at: T1,
      updated_by: 'usr_owner',
    });
    expect(eventsOf('MODIFY', org({}), org({ ...stamp('a'), retention: policy(90) }))).toEqual([
      {
        type: 'organization.retention_updated',
        actor,
        resource: { type: 'organization', id: 'org_a' },
        data: { recordings_days: 90, previous_recordings_days: null },
      },
    ]);
    expect(eventsOf('MODIFY', org({ retention: policy(90) }), org({ ...stamp('b'), retention: policy() }))[0].data).toEqual({
      recordings_days: null,
      previous_recordings_days: 90,
    });
    expect(eventsOf('MODIFY', org({ retention: policy(90) }), org({ retention: policy(90), recording_count: 5 }))).toEqual([]);
    // An organization item without the fields a full read needs still maps.
    expect(
      eventsOf('MODIFY', { ...keys.organization('org_b'), recording_count: 1 }, { ...keys.organization('org_b'), recording_count: 2 }),
    ).toEqual([]);
  });
});
