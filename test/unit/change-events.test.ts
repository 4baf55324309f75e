import type { DynamoDBRecord } from 'aws-lambda';
import { eventsOfRecord } from '../../shared/events/change-events';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { processStreamRecords } from '../../shared/events/stream-processor';
import { keys } from '../../shared/storage/keys';
import { TABLE } from '../../shared/storage/table-definition';
import { streamRecord } from '../support/stream-records';

const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-01T11:00:00.000Z';
const stamp = (
  id: string,
  actor: { kind: 'user' | 'api_key'; id: string } | null = { kind: 'user', id: 'usr_admin' },
  extra: Record<string, unknown> = {},
) => ({
  last_change: { id, actor, correlation_id: `corr-${id}`, ...extra },
});

/** A stream record as Lambda delivers it, from plain images. */
function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  before?: Record<string, unknown>,
  after?: Record<string, unknown>,
  extra: Partial<DynamoDBRecord> = {},
): DynamoDBRecord {
  return streamRecord(eventName, before, after, { at: T1, ...extra });
}

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
  state: 'pending_upload',
  created_at: T0,
  updated_at: T0,
  recording_at: T0,
  related: { transcript: false, summary: false, action_items: false, translation: false },
  upload: { s3_key: 'recordings/org_a/rec_1/a.m4a', content_type: 'audio/mp4', filename: 'a.m4a', size_bytes: 10 },
  ...fields,
});

const membership = (fields: Record<string, unknown> = {}) => ({
  ...keys.membership('org_a', 'usr_m'),
  org_id: 'org_a',
  user_id: 'usr_m',
  email: 'm@example.com',
  display_name: 'M',
  role: 'member',
  status: 'active',
  member_since: T0,
  created_at: T0,
  updated_at: T0,
  recording_count: 0,
  latest_recording_at: null,
  ...fields,
});

const invite = (fields: Record<string, unknown> = {}) => ({
  ...keys.invite('org_a', 'inv_1'),
  id: 'inv_1',
  org_id: 'org_a',
  email: 'new@example.com',
  role: 'member',
  status: 'pending',
  created_at: T0,
  updated_at: T0,
  expires_at: T1,
  invited_by: 'usr_admin',
  token_hash: 'a'.repeat(64),
  [TABLE.ttlAttribute]: Date.parse(T1) / 1000,
  ...fields,
});

const template = (fields: Record<string, unknown> = {}) => ({
  ...keys.template('org_a', 'tpl_1'),
  id: 'tpl_1',
  org_id: 'org_a',
  name: 'Weekly',
  description: 'd',
  sections: [{ title: 'a', prompt: 'b' }],
  created_at: T0,
  updated_at: T0,
  ...fields,
});

// Search's own internal event (recording.index_due) is test/unit/search/search-events.test.ts's.
const typesOf = (events: DomainEvent[]) => events.map((event) => event.type).filter((type) => type !== 'recording.index_due');

describe('eventsOfRecord: the events of one committed change', () => {
  describe('recordings', () => {
    it('a new recording is recording.created, by whoever wrote it, in their request', () => {
      const [event] = eventsOfRecord(record('INSERT', undefined, { ...recording(), ...stamp('s1', { kind: 'user', id: 'usr_rec' }) }));
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: 'recording.created',
        occurred_at: T0,
        org_id: 'org_a',
        actor: { kind: 'user', id: 'usr_rec' },
        correlation_id: 'corr-s1',
        resource: { type: 'recording', id: 'rec_1' },
        data: { recorded_by: 'usr_rec', state: 'pending_upload', content_type: 'audio/mp4', size_bytes: 10 },
      });
    });

    it.each([
      ['an upload landing', { state: 'uploaded', upload: { ...recording().upload, uploaded_bytes: 10 } }, ['recording.uploaded']],
      ['a failed upload', { state: 'failed' }, ['recording.upload_failed']],
      ['a move to the trash', { deleted_at: T1 }, ['recording.trashed']],
      ['a new title and tags', { title: 'New', tags: ['tag_1'] }, ['recording.updated']],
    ])('%s', (_name, changes, types) => {
      const before = { ...recording(), ...stamp('s1') };
      const after = { ...recording(changes), updated_at: T1, ...stamp('s2') };
      expect(typesOf(eventsOfRecord(record('MODIFY', before, after)))).toEqual(types);
    });

    it('an upload lands once: a transcription run undone (its recording trashed meanwhile) takes it back to uploaded without a second recording.uploaded', () => {
      const processing = { ...recording({ state: 'processing', upload: { ...recording().upload, uploaded_bytes: 10 } }), ...stamp('s1') };
      const undone = {
        ...recording({ state: 'uploaded', deleted_at: T1, upload: { ...recording().upload, uploaded_bytes: 10 } }),
        updated_at: T1,
        ...stamp('s2'),
      };
      expect(typesOf(eventsOfRecord(record('MODIFY', { ...processing, deleted_at: T1 }, undone)))).toEqual([]);
    });

    it('recording.updated names the fields that changed, not their values', () => {
      const [event] = eventsOfRecord(
        record('MODIFY', { ...recording(), ...stamp('s1') }, { ...recording({ title: 'Secret plans', tags: ['tag_1'] }), ...stamp('s2') }),
      );
      expect(event.data).toEqual({ recorded_by: 'usr_rec', state: 'pending_upload', changes: ['title', 'tags'] });
      expect(JSON.stringify(event)).not.toContain('Secret plans');
    });

    it('a restore is recording.restored', () => {
      const events = eventsOfRecord(
        record('MODIFY', { ...recording({ deleted_at: T0 }), ...stamp('s1') }, { ...recording(), ...stamp('s2') }),
      );
      expect(typesOf(events)).toEqual(['recording.restored']);
    });

    it('a counter or index change alone is no event', () => {
      expect(eventsOfRecord(record('MODIFY', { ...recording(), ...stamp('s1') }, { ...recording(), GSI1SK: 'x', ...stamp('s2') }))).toEqual(
        [],
      );
    });

    it('the REMOVE of a recording is no event: its tombstone is recording.deleted, with who deleted and why', () => {
      expect(eventsOfRecord(record('REMOVE', { ...recording(), ...stamp('s1') }))).toEqual([]);
      const tombstone = {
        ...keys.tombstone('org_a', 'recording', 'rec_1'),
        resource: 'recording',
        org_id: 'org_a',
        id: 'rec_1',
        deleted_at: T1,
        recorded_by: 'usr_rec',
      };
      const [byRequest] = eventsOfRecord(record('INSERT', undefined, { ...tombstone, ...stamp('s3', { kind: 'api_key', id: 'key_1' }) }));
      expect(byRequest).toMatchObject({
        type: 'recording.deleted',
        actor: { kind: 'api_key', id: 'key_1' },
        occurred_at: T1,
        data: { recorded_by: 'usr_rec', reason: 'request' },
      });
      const [byRetention] = eventsOfRecord(record('INSERT', undefined, { ...tombstone, ...stamp('s4', null, { reason: 'retention' }) }));
      expect(byRetention).toMatchObject({ type: 'recording.deleted', actor: null, data: { reason: 'retention' } });
      // The tombstone's own expiry later is nothing.
      expect(eventsOfRecord(record('REMOVE', { ...tombstone, ...stamp('s3') }))).toEqual([]);
    });

    it("a trash timer removed by DynamoDB's TTL is recording.retention_due; removed by a restore, nothing", () => {
      const timer = { ...keys.trashTimer('org_a', 'rec_1'), [TABLE.ttlAttribute]: Date.parse(T1) / 1000 };
      const ttl = { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } as Partial<DynamoDBRecord>;
      expect(eventsOfRecord(record('REMOVE', timer, undefined, ttl))).toEqual([
        expect.objectContaining({
          type: 'recording.retention_due',
          actor: null,
          occurred_at: T1,
          resource: { type: 'recording', id: 'rec_1' },
        }),
      ]);
      expect(eventsOfRecord(record('REMOVE', { ...timer, [TABLE.ttlEmulatorMark]: true }))).toHaveLength(1);
      expect(eventsOfRecord(record('REMOVE', timer))).toEqual([]);
    });
  });

  describe('members and their settings', () => {
    it('joining, a new role, and leaving', () => {
      expect(typesOf(eventsOfRecord(record('INSERT', undefined, { ...membership(), ...stamp('s1') })))).toEqual(['member.joined']);
      expect(
        typesOf(
          eventsOfRecord(record('MODIFY', { ...membership({ status: 'removed' }), ...stamp('s1') }, { ...membership(), ...stamp('s2') })),
        ),
      ).toEqual(['member.joined']);
      const [updated] = eventsOfRecord(
        record('MODIFY', { ...membership(), ...stamp('s1') }, { ...membership({ role: 'admin' }), ...stamp('s2') }),
      );
      expect(updated).toMatchObject({
        type: 'member.updated',
        resource: { type: 'member', id: 'usr_m' },
        data: { user_id: 'usr_m', role: 'admin', changes: ['role'] },
      });
      expect(
        typesOf(
          eventsOfRecord(record('MODIFY', { ...membership(), ...stamp('s1') }, { ...membership({ status: 'removed' }), ...stamp('s2') })),
        ),
      ).toEqual(['member.removed']);
      expect(typesOf(eventsOfRecord(record('REMOVE', { ...membership(), ...stamp('s1') })))).toEqual(['member.removed']);
    });

    it("a recording moving the member's counters is no event, and a write that did not restamp is not attributed", () => {
      expect(
        eventsOfRecord(record('MODIFY', { ...membership(), ...stamp('s1') }, { ...membership({ recording_count: 3 }), ...stamp('s1') })),
      ).toEqual([]);
      const [event] = eventsOfRecord(
        record('MODIFY', { ...membership(), ...stamp('s1') }, { ...membership({ display_name: 'N' }), ...stamp('s1') }),
      );
      expect(event).toMatchObject({ type: 'member.updated', actor: null, correlation_id: null });
    });

    it('member_settings.updated names the sections, never their content', () => {
      const settings = (revision: number, extra: Record<string, unknown> = {}) => ({
        ...keys.memberSettings('org_a', 'usr_m'),
        org_id: 'org_a',
        user_id: 'usr_m',
        settings: { selected_theme: 'dark' },
        notifications: {},
        profile_version: revision,
        preference_count: 0,
        revision,
        created_at: T0,
        updated_at: T1,
        ...extra,
      });
      const [event] = eventsOfRecord(
        record(
          'MODIFY',
          { ...settings(1), ...stamp('s1') },
          { ...settings(2, { changed_sections: ['profile', 'preferences'] }), ...stamp('s2') },
        ),
      );
      expect(event).toMatchObject({
        type: 'member_settings.updated',
        resource: { type: 'member_settings', id: 'usr_m' },
        data: { user_id: 'usr_m', sections: ['profile', 'preferences'] },
      });
      expect(JSON.stringify(event)).not.toContain('dark');
    });
  });

  describe('invites', () => {
    it('created, resent, accepted, revoked: with the email and role, never the token hash', () => {
      const created = eventsOfRecord(record('INSERT', undefined, { ...invite(), ...stamp('s1') }));
      expect(created).toEqual([
        expect.objectContaining({ type: 'invite.created', data: { email: 'new@example.com', role: 'member', expires_at: T1 } }),
      ]);
      expect(JSON.stringify(created)).not.toContain('a'.repeat(64));
      expect(
        typesOf(
          eventsOfRecord(
            record('MODIFY', { ...invite(), ...stamp('s1') }, { ...invite({ resent_at: T1, token_hash: 'b'.repeat(64) }), ...stamp('s2') }),
          ),
        ),
      ).toEqual(['invite.resent']);
      expect(
        typesOf(
          eventsOfRecord(
            record(
              'MODIFY',
              { ...invite(), ...stamp('s1') },
              { ...invite({ status: 'accepted', accepted_at: T1, accepted_by: 'usr_n' }), ...stamp('s2') },
            ),
          ),
        ),
      ).toEqual(['invite.accepted']);
      expect(
        typesOf(
          eventsOfRecord(
            record('MODIFY', { ...invite(), ...stamp('s1') }, { ...invite({ status: 'revoked', revoked_at: T1 }), ...stamp('s2') }),
          ),
        ),
      ).toEqual(['invite.revoked']);
    });

    it("the mail consumer's token rotation is no event; its delivery outcomes are", () => {
      expect(
        eventsOfRecord(
          record('MODIFY', { ...invite(), ...stamp('s1') }, { ...invite({ token_hash: 'c'.repeat(64) }), ...stamp('s2', null) }),
        ),
      ).toEqual([]);
      const [sent] = eventsOfRecord(
        record(
          'MODIFY',
          { ...invite({ email_status: 'queued', email_sent_at: null, email_attempts: 0, email_last_error: null }), ...stamp('s1') },
          { ...invite({ email_status: 'sent', email_sent_at: T1, email_attempts: 2, email_last_error: null }), ...stamp('s2', null) },
        ),
      );
      expect(sent).toMatchObject({ type: 'invite.email_sent', actor: null, data: { attempts: 2 } });
      const [failed] = eventsOfRecord(
        record(
          'MODIFY',
          { ...invite({ email_status: 'queued', email_sent_at: null, email_attempts: 0, email_last_error: null }), ...stamp('s1') },
          {
            ...invite({ email_status: 'failed', email_sent_at: null, email_attempts: 5, email_last_error: 'MAIL_REJECTED' }),
            ...stamp('s2', null),
          },
        ),
      );
      expect(failed).toMatchObject({ type: 'invite.email_failed', data: { attempts: 5, error: 'MAIL_REJECTED' } });
    });

    it('a pending invite removed by TTL is invite.expired, at its expiry, by no one; a revoked one leaves silently', () => {
      const ttl = { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } as Partial<DynamoDBRecord>;
      expect(eventsOfRecord(record('REMOVE', { ...invite(), ...stamp('s1') }, undefined, ttl))).toEqual([
        expect.objectContaining({ type: 'invite.expired', occurred_at: T1, actor: null }),
      ]);
      expect(eventsOfRecord(record('REMOVE', { ...invite({ status: 'revoked' }), ...stamp('s1') }, undefined, ttl))).toEqual([]);
    });
  });

  describe('templates', () => {
    it('created, updated with the changed field names, deleted by its tombstone', () => {
      expect(typesOf(eventsOfRecord(record('INSERT', undefined, { ...template(), ...stamp('s1') })))).toEqual(['template.created']);
      const [updated] = eventsOfRecord(
        record('MODIFY', { ...template(), ...stamp('s1') }, { ...template({ sections: [] }), ...stamp('s2') }),
      );
      expect(updated).toMatchObject({ type: 'template.updated', data: { name: 'Weekly', changes: ['sections'] } });
      expect(eventsOfRecord(record('REMOVE', { ...template(), ...stamp('s2') }))).toEqual([]);
      const tombstone = {
        ...keys.tombstone('org_a', 'template', 'tpl_1'),
        resource: 'template',
        org_id: 'org_a',
        id: 'tpl_1',
        deleted_at: T1,
        ...stamp('s3'),
      };
      expect(eventsOfRecord(record('INSERT', undefined, tombstone))).toEqual([
        expect.objectContaining({ type: 'template.deleted', resource: { type: 'template', id: 'tpl_1' } }),
      ]);
    });

    it('becoming or no longer being the default is a change of is_default; a template from before defaults has none to report when written with false', () => {
      const [made] = eventsOfRecord(
        record('MODIFY', { ...template(), ...stamp('s1') }, { ...template({ is_default: true }), ...stamp('s2') }),
      );
      expect(made).toMatchObject({ type: 'template.updated', data: { changes: ['is_default'] } });
      const [dropped] = eventsOfRecord(
        record('MODIFY', { ...template({ is_default: true }), ...stamp('s2') }, { ...template({ is_default: false }), ...stamp('s3') }),
      );
      expect(dropped).toMatchObject({ type: 'template.updated', data: { changes: ['is_default'] } });
      expect(
        eventsOfRecord(record('MODIFY', { ...template(), ...stamp('s1') }, { ...template({ is_default: false }), ...stamp('s2') })),
      ).toEqual([]);
    });
  });

  it('items that are no subject of an event give none (guards, tokens, counters, other partitions)', () => {
    const guard = { ...keys.inviteEmailGuard('org_a', 'x@example.com'), invite_id: 'inv_1', expires_at: T1 };
    const token = { ...keys.inviteToken('f'.repeat(64)), org_id: 'org_a', invite_id: 'inv_1' };
    const user = { ...keys.user('usr_1'), user_id: 'usr_1' };
    for (const item of [guard, token, user]) expect(eventsOfRecord(record('INSERT', undefined, item))).toEqual([]);
  });

  it('a stream record delivered twice gives the same event ids; another record, other ids', () => {
    const first = record('INSERT', undefined, { ...template(), ...stamp('s1') });
    const other = record('INSERT', undefined, { ...template(), ...stamp('s1') });
    expect(eventsOfRecord(first)[0].id).toBe(eventsOfRecord({ ...first })[0].id);
    expect(eventsOfRecord(other)[0].id).not.toBe(eventsOfRecord(first)[0].id);
  });
});

describe('processStreamRecords: a batch of records to the bus', () => {
  const templates = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      record('INSERT', undefined, { ...template({ id: `tpl_${i}`, SK: `TEMPLATE#tpl_${i}` }), ...stamp(`s${i}`) }),
    );

  it('publishes every event in stream order, 10 per call', async () => {
    const calls: string[][] = [];
    const records = templates(23);
    const result = await processStreamRecords(records, async (events) => void calls.push(events.map((event) => event.resource.id)));
    expect(result).toEqual({ published: 23, batchItemFailures: [] });
    expect(calls.map((call) => call.length)).toEqual([10, 10, 3]);
    expect(calls.flat()).toEqual(records.map((_, i) => `tpl_${i}`));
  });

  it('when the bus fails mid-batch, the batch resumes at the first record not published, and the retry repeats no id it already sent', async () => {
    const records = templates(25);
    const sent: string[] = [];
    let failures = 1;
    const flaky = async (events: readonly DomainEvent[]) => {
      if (sent.length === 10 && failures-- > 0) throw new Error('EventBridge unavailable');
      sent.push(...events.map((event) => event.id));
    };
    const first = await processStreamRecords(records, flaky);
    expect(first).toEqual({ published: 10, batchItemFailures: [{ itemIdentifier: records[10].dynamodb?.SequenceNumber }] });
    // Lambda delivers the batch again from the failed record on.
    const second = await processStreamRecords(records.slice(10), flaky);
    expect(second.batchItemFailures).toEqual([]);
    expect(sent).toHaveLength(25);
    expect(new Set(sent).size).toBe(25);
  });

  it('an item it cannot read stops the batch there, after publishing what came before', async () => {
    const records = templates(3);
    const broken = record('INSERT', undefined, { ...keys.template('org_a', 'tpl_bad'), id: 'tpl_bad' });
    const published: string[] = [];
    const result = await processStreamRecords(
      [records[0], broken, records[1]],
      async (events) => void published.push(...events.map((event) => event.resource.id)),
    );
    expect(published).toEqual(['tpl_0']);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: broken.dynamodb?.SequenceNumber }]);
  });
});
