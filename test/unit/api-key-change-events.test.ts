import type { DynamoDBRecord } from 'aws-lambda';
import { eventsOfRecord } from '../../shared/events/change-events';
import { apiKeyItem, type ApiKeyRecord } from '../../shared/storage/api-key-items';
import { streamRecord } from '../support/stream-records';

/** The events the stream gives for managed API keys (docs/events.md): created, rotated, revoked; never for a use, never a secret. */
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-01T11:00:00.000Z';

const key = (fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  key_id: 'key_0123456789abcdef0123',
  org_id: 'org_a',
  kind: 'org',
  name: 'CRM sync',
  prefix: 'pk_org_a1b2c3',
  scopes: ['recordings:read'],
  user_id: null,
  created_at: T0,
  created_by: 'usr_admin',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  rotated_at: null,
  secret_hash: 'a'.repeat(64),
  previous_secret: null,
  rate_limit: null,
  ...fields,
});

/** The item as a write stamps it, with a given stamp. */
const item = (record: ApiKeyRecord, stampId: string, reason?: string) => ({
  ...apiKeyItem(record),
  last_change: { id: stampId, actor: { kind: 'user', id: 'usr_admin' }, correlation_id: `corr-${stampId}`, ...(reason ? { reason } : {}) },
});

const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  before?: Record<string, unknown>,
  after?: Record<string, unknown>,
): DynamoDBRecord => streamRecord(eventName, before, after, { at: T1 });

const typesOf = (r: DynamoDBRecord) => eventsOfRecord(r).map((event) => event.type);

describe('API key change events', () => {
  it('a new key is api_key.created, with its kind, name, scopes and member, and nothing of its secret', () => {
    const [event] = eventsOfRecord(record('INSERT', undefined, item(key(), 's1')));
    expect(event).toMatchObject({
      type: 'api_key.created',
      org_id: 'org_a',
      occurred_at: T0,
      actor: { kind: 'user', id: 'usr_admin' },
      resource: { type: 'api_key', id: 'key_0123456789abcdef0123' },
      data: { kind: 'org', name: 'CRM sync', scopes: ['recordings:read'], user_id: null, expires_at: null },
    });
    expect(JSON.stringify(event)).not.toMatch(/aaaa|pk_org_a1b2c3/);
  });

  it('a new secret is api_key.rotated; a revocation api_key.revoked, with the service reason when there is one', () => {
    const before = item(key(), 's1');
    const rotated = key({
      secret_hash: 'b'.repeat(64),
      prefix: 'pk_org_d4e5f6',
      rotated_at: T1,
      previous_secret: { hash: 'a'.repeat(64), retires_at: '2026-11-01T12:00:00.000Z' },
    });
    expect(eventsOfRecord(record('MODIFY', before, item(rotated, 's2')))).toEqual([
      expect.objectContaining({
        type: 'api_key.rotated',
        occurred_at: T1,
        data: expect.objectContaining({ previous_secret_expires_at: '2026-11-01T12:00:00.000Z' }),
      }),
    ]);
    const revoked = eventsOfRecord(record('MODIFY', before, item(key({ revoked_at: T1 }), 's3', 'member_removed')));
    expect(revoked).toEqual([
      expect.objectContaining({ type: 'api_key.revoked', occurred_at: T1, data: expect.objectContaining({ reason: 'member_removed' }) }),
    ]);
  });

  it('a recorded use, an adopted fixture key (no stamp) and a removal are no events', () => {
    const before = item(key(), 's1');
    expect(typesOf(record('MODIFY', before, { ...before, last_used_at: T1 }))).toEqual([]);
    const { last_change: _unstamped, ...adopted } = apiKeyItem(key());
    expect(typesOf(record('INSERT', undefined, adopted))).toEqual([]);
    expect(typesOf(record('REMOVE', before, undefined))).toEqual([]);
  });
});
