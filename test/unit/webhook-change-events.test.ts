import type { DynamoDBRecord } from 'aws-lambda';
import { eventsOfRecord } from '../../shared/events/change-events';
import { isPublicEvent, type DomainEvent } from '../../shared/schemas/event-catalog';
import { keys } from '../../shared/storage/keys';
import { TABLE } from '../../shared/storage/table-definition';
import { deliveryItem, webhookItem, type DeliveryRecord, type WebhookRecord } from '../../shared/storage/webhook-items';
import { streamRecord } from '../support/stream-records';

/** The events the stream gives for webhook endpoints and their deliveries (docs/events.md), from stream records built as in change-events.test.ts. */
const T0 = '2026-11-01T10:00:00.000Z';
const T1 = '2026-11-01T11:00:00.000Z';
const T2 = '2026-11-04T10:00:01.000Z';
const URL_WITH_TOKEN = 'https://hooks.example.com/in/tok_receiver_private_9f3a';
const CIPHERTEXT = new Uint8Array(Buffer.from('ciphertext-of-the-signing-secret-0123456789'));
const ROTATED_CIPHERTEXT = new Uint8Array(Buffer.from('ciphertext-of-the-rotated-secret-abcdefghij'));

const stamp = (id: string, actor: { kind: 'user' | 'api_key'; id: string } | null = { kind: 'user', id: 'usr_admin' }) => ({
  last_change: { id, actor, correlation_id: actor ? `corr-${id}` : null },
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

const webhook = (fields: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: 'wh_1',
  org_id: 'org_a',
  url: URL_WITH_TOKEN,
  description: 'CRM sync',
  events: ['recording.created', 'template.created'],
  enabled: true,
  disabled_reason: null,
  created_at: T0,
  updated_at: T0,
  secrets: [{ ciphertext: CIPHERTEXT, created_at: T0 }],
  failing_since: null,
  ...fields,
});

/** An endpoint's item as the storage layer writes it, stamped by `writer`. */
const webhookImage = (fields: Partial<WebhookRecord> = {}, writer = stamp('s1')) => ({ ...webhookItem(webhook(fields)), ...writer });

const delivery = (fields: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: `dlv_${'0'.repeat(12)}${'a'.repeat(20)}`,
  org_id: 'org_a',
  webhook_id: 'wh_1',
  event_id: 'evt_1',
  event_type: 'template.created',
  payload: JSON.stringify({ id: 'evt_1', type: 'template.created' }),
  status: 'pending',
  attempts: 0,
  created_at: T0,
  last_attempt_at: null,
  next_attempt_at: T0,
  response_status: null,
  response_ms: null,
  error: null,
  dispatch_id: 'dispatch_1',
  ...fields,
});

// Deliveries are written by the service (the fan-out consumer, the dispatcher): no request's stamp.
const deliveryImage = (fields: Partial<DeliveryRecord> = {}) => deliveryItem(delivery(fields), Date.parse(T0) / 1000 + 30 * 86_400);

const typesOf = (events: DomainEvent[]) => events.map((event) => event.type);

/** Nothing of the URL or the secret's ciphertext anywhere in an event. */
function expectNoUrlNorSecret(events: DomainEvent[]) {
  for (const event of events) {
    const text = JSON.stringify(event);
    expect(text).not.toContain('hooks.example.com');
    expect(text).not.toContain('tok_receiver_private');
    expect(text).not.toMatch(/"secrets?"|ciphertext|whsec_/i);
    expect(JSON.stringify(event.data)).not.toMatch(/secret/i);
    for (const bytes of [CIPHERTEXT, ROTATED_CIPHERTEXT]) {
      expect(text).not.toContain(Buffer.from(bytes).toString('base64'));
      expect(text).not.toContain(Buffer.from(bytes).toString('utf8'));
    }
    expect(event.data).not.toHaveProperty('url');
  }
}

describe('webhook endpoint events', () => {
  it('a new endpoint is webhook.created: its events and enabled, by whoever created it; never its URL nor its secret', () => {
    const events = eventsOfRecord(record('INSERT', undefined, webhookImage()));
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: 'webhook.created',
        occurred_at: T0,
        org_id: 'org_a',
        actor: { kind: 'user', id: 'usr_admin' },
        correlation_id: 'corr-s1',
        resource: { type: 'webhook', id: 'wh_1' },
        data: { events: ['recording.created', 'template.created'], enabled: true },
      },
    ]);
    expectNoUrlNorSecret(events);
  });

  it('a change is webhook.updated naming the fields changed, not their values (a new URL is named, not shown)', () => {
    const before = webhookImage();
    const after = webhookImage(
      { url: 'https://hooks.example.com/in/tok_receiver_private_new', description: 'New text', events: ['*'], updated_at: T1 },
      stamp('s2', { kind: 'api_key', id: 'key_1' }),
    );
    const events = eventsOfRecord(record('MODIFY', before, after));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'webhook.updated',
        occurred_at: T1,
        actor: { kind: 'api_key', id: 'key_1' },
        resource: { type: 'webhook', id: 'wh_1' },
        data: { events: ['*'], enabled: true, changes: ['url', 'description', 'events'] },
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain('New text');
    expectNoUrlNorSecret(events);
  });

  it('disabling by hand, and enabling again, are webhook.updated (enabled changed), not webhook.disabled', () => {
    const enabled = webhookImage();
    const disabled = webhookImage({ enabled: false, disabled_reason: 'manual', updated_at: T1 }, stamp('s2'));
    expect(eventsOfRecord(record('MODIFY', enabled, disabled))).toEqual([
      expect.objectContaining({ type: 'webhook.updated', data: { events: enabled.events, enabled: false, changes: ['enabled'] } }),
    ]);
    const failing = webhookImage({ enabled: false, disabled_reason: 'failing', failing_since: T0 }, stamp('s3', null));
    const reenabled = webhookImage({ enabled: true, disabled_reason: null, updated_at: T2 }, stamp('s4'));
    expect(typesOf(eventsOfRecord(record('MODIFY', failing, reenabled)))).toEqual(['webhook.updated']);
  });

  it('the service disabling a failing endpoint is webhook.disabled: reason failing, since when, no actor', () => {
    const before = webhookImage({ failing_since: T0 }, stamp('s1'));
    const after = webhookImage({ enabled: false, disabled_reason: 'failing', failing_since: T0, updated_at: T2 }, stamp('s2', null));
    const events = eventsOfRecord(record('MODIFY', before, after));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'webhook.disabled',
        occurred_at: T2,
        actor: null,
        correlation_id: null,
        resource: { type: 'webhook', id: 'wh_1' },
        data: { reason: 'failing', failing_since: T0 },
      }),
    ]);
    expect(isPublicEvent(events[0])).toBe(true);
    expectNoUrlNorSecret(events);
  });

  it('a new signing secret is webhook.secret_rotated, with nothing of either secret', () => {
    const before = webhookImage();
    const after = webhookImage(
      {
        secrets: [
          { ciphertext: ROTATED_CIPHERTEXT, created_at: T1 },
          { ciphertext: CIPHERTEXT, created_at: T0, expires_at: '2026-11-02T11:00:00.000Z' },
        ],
        updated_at: T1,
      },
      stamp('s2'),
    );
    const events = eventsOfRecord(record('MODIFY', before, after));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'webhook.secret_rotated',
        occurred_at: T1,
        actor: { kind: 'user', id: 'usr_admin' },
        resource: { type: 'webhook', id: 'wh_1' },
        data: {},
      }),
    ]);
    expectNoUrlNorSecret(events);
  });

  it('the dispatcher noting failures (failing_since set, then cleared by a success) is no event', () => {
    const healthy = webhookImage({}, stamp('s1'));
    // markWebhookFailing / clearWebhookFailing touch failing_since only, without restamping.
    const failing = { ...healthy, failing_since: T1 };
    const { failing_since: _cleared, ...recovered } = failing;
    expect(eventsOfRecord(record('MODIFY', healthy, failing))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', failing, { ...failing, failing_since: T1 }))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', failing, recovered))).toEqual([]);
  });

  it('the REMOVE of an endpoint is no event; its tombstone is webhook.deleted, by whoever deleted it', () => {
    expect(eventsOfRecord(record('REMOVE', webhookImage()))).toEqual([]);
    const tombstone = {
      ...keys.tombstone('org_a', 'webhook', 'wh_1'),
      resource: 'webhook',
      org_id: 'org_a',
      id: 'wh_1',
      deleted_at: T1,
      ...stamp('s5', { kind: 'api_key', id: 'key_1' }),
    };
    const events = eventsOfRecord(record('INSERT', undefined, tombstone));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'webhook.deleted',
        occurred_at: T1,
        actor: { kind: 'api_key', id: 'key_1' },
        correlation_id: 'corr-s5',
        resource: { type: 'webhook', id: 'wh_1' },
        data: {},
      }),
    ]);
    // The tombstone's own expiry later is nothing.
    expect(eventsOfRecord(record('REMOVE', tombstone))).toEqual([]);
  });

  it('the endpoint counter is no event', () => {
    const counter = { ...keys.webhookCount('org_a'), endpoints: 1 };
    expect(eventsOfRecord(record('INSERT', undefined, counter))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', counter, { ...counter, endpoints: 2 }))).toEqual([]);
  });
});

describe('webhook.delivery_due: the dispatcher’s cue', () => {
  it('a new pending delivery is due: internal, about the delivery, naming its endpoint and dispatch', () => {
    const events = eventsOfRecord(record('INSERT', undefined, deliveryImage()));
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: 'webhook.delivery_due',
        occurred_at: T0,
        org_id: 'org_a',
        actor: null,
        correlation_id: null,
        resource: { type: 'webhook_delivery', id: delivery().id },
        data: { webhook_id: 'wh_1', dispatch_id: 'dispatch_1' },
      },
    ]);
    expect(isPublicEvent(events[0])).toBe(false);
    // Nothing of the payload travels with the cue.
    expect(JSON.stringify(events)).not.toContain('template.created');
  });

  it('a test event’s delivery is due too', () => {
    expect(typesOf(eventsOfRecord(record('INSERT', undefined, deliveryImage({ event_type: 'webhook.test' }))))).toEqual([
      'webhook.delivery_due',
    ]);
  });

  it('the attempts of the same dispatch are not: the claim, a failure with a retry scheduled, the last failure, a success', () => {
    const pending = deliveryImage();
    const claimed = { ...pending, lease: { token: 'lease_1', until: T1 } };
    const retrying = deliveryImage({
      attempts: 1,
      last_attempt_at: T0,
      next_attempt_at: T1,
      response_status: 500,
      response_ms: 40,
      error: 'non_2xx',
    });
    const failed = deliveryImage({
      status: 'failed',
      attempts: 8,
      last_attempt_at: T2,
      next_attempt_at: null,
      response_status: 500,
      response_ms: 40,
      error: 'non_2xx',
    });
    const succeeded = deliveryImage({
      status: 'succeeded',
      attempts: 2,
      last_attempt_at: T1,
      next_attempt_at: null,
      response_status: 204,
      response_ms: 30,
    });
    expect(eventsOfRecord(record('MODIFY', pending, claimed))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', claimed, retrying))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', { ...retrying, lease: { token: 'lease_8', until: T2 } }, failed))).toEqual([]);
    expect(eventsOfRecord(record('MODIFY', { ...retrying, lease: { token: 'lease_2', until: T1 } }, succeeded))).toEqual([]);
  });

  it('a retry asked for (a new dispatch id, pending again) is due once more, when asked', () => {
    const failed = deliveryImage({
      status: 'failed',
      attempts: 8,
      last_attempt_at: T1,
      next_attempt_at: null,
      response_status: 500,
      error: 'non_2xx',
    });
    const retried = deliveryImage({
      status: 'pending',
      attempts: 8,
      last_attempt_at: T1,
      next_attempt_at: T2,
      response_status: 500,
      error: 'non_2xx',
      dispatch_id: 'dispatch_2',
    });
    const events = eventsOfRecord(record('MODIFY', failed, retried));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'webhook.delivery_due',
        occurred_at: T2,
        actor: null,
        data: { webhook_id: 'wh_1', dispatch_id: 'dispatch_2' },
      }),
    ]);
  });

  it('a delivery expiring (TTL) or settled without a request (endpoint disabled) is no event', () => {
    const ttl = { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } as Partial<DynamoDBRecord>;
    expect(eventsOfRecord(record('REMOVE', deliveryImage(), undefined, ttl))).toEqual([]);
    expect(eventsOfRecord(record('REMOVE', { ...deliveryImage(), [TABLE.ttlEmulatorMark]: true }))).toEqual([]);
    const settled = deliveryImage({ status: 'failed', next_attempt_at: null, error: 'endpoint_disabled' });
    expect(eventsOfRecord(record('MODIFY', { ...deliveryImage(), lease: { token: 'l', until: T1 } }, settled))).toEqual([]);
  });

  it('the same stream record gives the same event id (a redelivered record is the same event)', () => {
    const insert = record('INSERT', undefined, deliveryImage());
    expect(eventsOfRecord(insert)[0].id).toBe(eventsOfRecord(insert)[0].id);
    const other = record('INSERT', undefined, deliveryImage());
    expect(eventsOfRecord(other)[0].id).not.toBe(eventsOfRecord(insert)[0].id);
  });
});
