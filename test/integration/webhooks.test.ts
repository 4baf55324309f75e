import { Webhook as StandardWebhook } from 'standardwebhooks';
import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import type { AuditEntry } from '../../shared/schemas/audit';
import type { CreatedWebhook, Webhook as WebhookBody, WebhookDelivery as DeliveryBody } from '../../shared/schemas/webhooks';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/webhooks/http-sender';
import type * as v from 'valibot';
import { call, expectFailure, idTokenFor, localDeployment, once, TIMESTAMP, unique, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { publishedEvents } from '../support/events';
import { buildOrg, seedOrg } from '../support/org-builder';
import { closedPortUrl, latch, startReceiver, webhookHeadersOf, type ReceivedDelivery, type Receiver, type Responder } from '../support/webhook-receiver';

/**
 * Webhooks end to end, as an integrator sees them: the nine routes through the local API
 * (authorizer, handlers, DynamoDB Local), and deliveries through the whole pipeline (the
 * table's stream, the processor, the fan-out, the dispatcher) to receivers on loopback that
 * verify every signature with `standardwebhooks`, an implementation that is not ours.
 *
 * The shared deployment scales the dispatcher's retry delays by a thousandth (5 s -> 5 ms,
 * 5 min -> 300 ms, 30 min -> 1.8 s...), so retries are observed without waiting; one
 * attempt's 10 s budget is not scaled. To look at a delivery between two attempts, a
 * receiver holds its answer to the next attempt on a latch until the test has looked (or,
 * after a 10 s timeout, reads the delivery itself when the next attempt comes). Deliveries
 * come in no promised order, so none is assumed. Every describe block builds its own
 * organization (at most 10 endpoints each).
 */
const { runtime } = localDeployment();

type CreatedWebhookBody = v.InferOutput<typeof CreatedWebhook>;
type DeliveryList = { deliveries: DeliveryBody[]; pagination: { limit: number; next_cursor: string | null } };
/** The envelope of a 400, with what the tests read of it. */
type Refusal = { error: string; details?: { field: string; issue: string }[] };

const WEBHOOK_ID = /^wh_[0-9a-f]{20}$/;
const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;
const EVENT_ID = /^evt_[0-9a-f]{32}$/;
const DAY_MS = 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------
// Organizations, receivers and the API

function hooksOrg(label: string) {
  return seedOrg(
    buildOrg({
      label,
      keys: {
        hooks: { scopes: ['webhooks:read', 'webhooks:write', 'templates:write'] },
        reader: { scopes: ['webhooks:read'] },
        audit: { scopes: ['audit:read'] },
      },
    }),
  );
}
type HooksOrg = Awaited<ReturnType<typeof hooksOrg>>;

const receivers: Receiver[] = [];
/** Endpoints the tests created, deleted after the file so that no retry outlives it. */
const endpoints = new Map<string, { orgId: string; token: string }>();

async function receiver(respond?: Responder): Promise<Receiver> {
  const started = await startReceiver(respond);
  receivers.push(started);
  return started;
}

afterAll(async () => {
  await Promise.all([...endpoints].map(([id, { orgId, token }]) => call(runtime.apiUrl, 'DELETE', `/api/v1/organization/${orgId}/webhooks/${id}`, { token })));
  await Promise.all(receivers.map((r) => r.close()));
});

/** The webhook routes of one organization's path, with one credential (the org key with both webhook scopes unless told). */
function hooksApi(o: HooksOrg, token: string = o.keys.hooks, orgId: string = o.org) {
  const base = `/api/v1/organization/${orgId}/webhooks`;
  const send = <T = any>(method: string, path: string, body?: unknown, correlationId?: string): Promise<ApiResponse<T>> =>
    call<T>(runtime.apiUrl, method, `${base}${path}`, { token, body, headers: correlationId ? { 'x-correlation-id': correlationId } : {} });
  return {
    create: async (body: unknown, correlationId?: string) => {
      const res = await send<CreatedWebhookBody>('POST', '', body, correlationId);
      if (res.status === 201) endpoints.set(res.body.id, { orgId, token });
      return res;
    },
    list: () => send<{ webhooks: WebhookBody[] }>('GET', ''),
    get: (id: string) => send<WebhookBody>('GET', `/${id}`),
    update: (id: string, body: unknown, correlationId?: string) => send<WebhookBody>('PATCH', `/${id}`, body, correlationId),
    remove: (id: string, correlationId?: string) => send('DELETE', `/${id}`, undefined, correlationId),
    rotate: (id: string, correlationId?: string) => send<CreatedWebhookBody & { previous_secret_expires_at: string }>('POST', `/${id}/rotate-secret`, undefined, correlationId),
    test: (id: string) => send<DeliveryBody>('POST', `/${id}/test`),
    deliveries: (id: string, query = '') => send<DeliveryList>('GET', `/${id}/deliveries${query}`),
    retry: (id: string, deliveryId: string) => send<DeliveryBody>('POST', `/${id}/deliveries/${deliveryId}/retry`),
  };
}
type HooksApi = ReturnType<typeof hooksApi>;

/** Creates an endpoint that must be accepted. */
async function endpoint(hooks: HooksApi, body: Record<string, unknown>): Promise<CreatedWebhookBody> {
  const res = await hooks.create(body);
  expect(res.status).toBe(201);
  return res.body;
}

/** A template change of the organization: an event the endpoints may subscribe to. */
async function createTemplate(o: HooksOrg, correlationId?: string): Promise<string> {
  const res = await call(runtime.apiUrl, 'POST', `/api/v1/organization/${o.org}/templates`, {
    token: o.keys.hooks,
    body: { name: `Standup ${unique()}`, sections: [{ title: 'Done', prompt: 'What got done?' }] },
    headers: correlationId ? { 'x-correlation-id': correlationId } : {},
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function changeTemplate(o: HooksOrg, method: 'PATCH' | 'DELETE', templateId: string): Promise<void> {
  const res = await call(runtime.apiUrl, method, `/api/v1/organization/${o.org}/templates/${templateId}`, { token: o.keys.hooks, body: method === 'PATCH' ? { description: 'Every morning' } : undefined });
  expect(res.status).toBe(200);
}

/** One delivery of an endpoint, once `done` holds for it (or the time is up: then as it last was). */
async function deliveryWhen(hooks: HooksApi, webhookId: string, deliveryId: string, done: (delivery: DeliveryBody) => boolean, wait: { alsoWaitingMs?: number } = {}): Promise<DeliveryBody | undefined> {
  const find = (res: ApiResponse<DeliveryList>) => res.body.deliveries?.find((delivery) => delivery.id === deliveryId);
  const res = await eventually(() => hooks.deliveries(webhookId, '?limit=100'), (r) => r.status === 200 && !!find(r) && done(find(r)!), wait);
  return find(res);
}

/** Every delivery of an endpoint, once `done` holds for the list. */
async function deliveriesWhen(hooks: HooksApi, webhookId: string, done: (deliveries: DeliveryBody[]) => boolean): Promise<DeliveryBody[]> {
  const res = await eventually(() => hooks.deliveries(webhookId, '?limit=100'), (r) => r.status === 200 && done(r.body.deliveries));
  return res.body.deliveries;
}

/** The payload of a received delivery, verified with `secret` by standardwebhooks (which throws when the signature does not match). */
function verified(secret: string, delivery: ReceivedDelivery): DomainEvent {
  return new StandardWebhook(secret).verify(delivery.body, webhookHeadersOf(delivery)) as DomainEvent;
}

const payloadOf = (delivery: ReceivedDelivery) => JSON.parse(delivery.body) as DomainEvent;
const webhookIdOf = (delivery: ReceivedDelivery) => webhookHeadersOf(delivery)['webhook-id'];
/** The signatures of a delivery's webhook-signature header (space-separated, one per secret). */
const signaturesOf = (delivery: ReceivedDelivery) => webhookHeadersOf(delivery)['webhook-signature'].split(' ');

/** No secret in an answer: not the secret itself, nor any field that could carry one. */
function expectNoSecret(body: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(body);
  for (const secret of secrets) expect(text).not.toContain(secret.slice('whsec_'.length));
  expect(text).not.toContain('whsec_');
  expect(text).not.toMatch(/"(secret|secrets|ciphertext|previous_secret_expires_at)"/);
}

/** A 400 whose details name `field`. */
function expectRefused(res: ApiResponse<unknown>, code: 'VALIDATION_ERROR' | 'WEBHOOK_URL_NOT_ALLOWED' | 'INVALID_JSON', field?: string): void {
  expectFailure(res, 400, code);
  if (field) expect((res.body as Refusal).details).toContainEqual(expect.objectContaining({ field }));
}

/**
 * An endpoint that never answers costs one attempt's full 10 s, during which the local
 * dispatcher waits on it. Started first, it runs while the tests that wait for no delivery
 * do theirs; its second attempt (answered 200) first reads the delivery as the first left it.
 */
const timeoutScenario = once(async () => {
  const o = await hooksOrg('whtimeout');
  const hooks = hooksApi(o);
  let seen: (delivery: DeliveryBody | undefined) => void = () => {};
  const seenBySecondAttempt = new Promise<DeliveryBody | undefined>((resolve) => (seen = resolve));
  const at = await receiver(async (n, request) => {
    if (n === 1) return 'hang';
    if (n === 2) {
      const res = await hooks.deliveries(hook.id).catch(() => undefined);
      seen(res?.body.deliveries?.find((d) => d.event_id === webhookIdOf(request)));
    }
    return 200;
  });
  const hook = await endpoint(hooks, { url: at.url, events: ['template.deleted'] });
  const sent = await hooks.test(hook.id);
  expect(sent.status).toBe(202);
  return { hooks, at, hook, delivery: sent.body, seenBySecondAttempt };
});
beforeAll(() => timeoutScenario());

// ---------------------------------------------------------------------------------------

describe('endpoints: create, list, get, update, delete', () => {
  let o: HooksOrg;
  let hooks: HooksApi;
  let url: string;
  beforeAll(async () => {
    o = await hooksOrg('whcrud');
    hooks = hooksApi(o);
    url = (await receiver()).url;
  });

  it('create answers 201 with the endpoint, its defaults, and a signing secret shown only there', async () => {
    const res = await hooks.create({ url, events: ['template.created'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(WEBHOOK_ID),
      url,
      description: '',
      events: ['template.created'],
      enabled: true,
      disabled_reason: null,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: res.body.created_at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    // whsec_ and the base64 of 32 random bytes (Standard Webhooks).
    expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const { secret, ...view } = res.body;

    const got = await hooks.get(res.body.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(view);
    expectNoSecret(got.body, secret);
    const listed = await hooks.list();
    expect(listed.body.webhooks).toContainEqual(view);
    expectNoSecret(listed.body, secret);
    // Each endpoint has a secret of its own.
    const other = await endpoint(hooks, { url, events: ['*'], description: 'Billing' });
    expect(other.secret).not.toBe(secret);
    expect(other).toMatchObject({ events: ['*'], description: 'Billing' });
  });

  it('create takes a description, and enabled: false (disabled by hand)', async () => {
    const res = await hooks.create({ url, events: ['recording.uploaded', 'template.deleted'], description: 'Transcripts\tand templates\n', enabled: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: 'Transcripts\tand templates\n', events: ['recording.uploaded', 'template.deleted'], enabled: false, disabled_reason: 'manual' });
  });

  it('list holds every endpoint of the organization, oldest first; a key with webhooks:read reads it', async () => {
    const listed = await hooksApi(o, o.keys.reader).list();
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks.length).toBeGreaterThanOrEqual(3);
    const created = listed.body.webhooks.map((webhook) => webhook.created_at);
    expect(created).toEqual([...created].sort());
    const fresh = await endpoint(hooks, { url, events: ['*'] });
    const after = await hooks.list();
    expect(after.body.webhooks.map((webhook) => webhook.id)).toEqual([...listed.body.webhooks.map((webhook) => webhook.id), fresh.id]);
    expectNoSecret(after.body, fresh.secret);
  });

  it('PATCH changes each field it is given, and only those; it never shows the secret', async () => {
    const created = await endpoint(hooks, { url, events: ['template.created'], description: 'Before' });
    const { secret, ...view } = created;
    const patches: [Record<string, unknown>, Partial<WebhookBody>][] = [
      [{ description: 'After' }, { description: 'After' }],
      [{ url: `${url}/v2?tenant=a` }, { url: `${url}/v2?tenant=a` }],
      [{ events: ['template.updated', 'template.deleted'] }, { events: ['template.updated', 'template.deleted'] }],
      [{ events: ['*'] }, { events: ['*'] }],
      [{ description: '' }, { description: '' }],
      [{ url, description: 'Both', events: ['template.created'] }, { url, description: 'Both', events: ['template.created'] }],
    ];
    let expected: WebhookBody = view;
    for (const [patch, changed] of patches) {
      const res = await hooks.update(created.id, patch);
      expect(res.status).toBe(200);
      expected = { ...expected, ...changed, updated_at: res.body.updated_at };
      expect(res.body).toEqual(expected);
      expect(res.body.updated_at >= view.updated_at).toBe(true);
      expectNoSecret(res.body, secret);
      expect((await hooks.get(created.id)).body).toEqual(expected);
    }
    expect(expected.created_at).toBe(view.created_at);
  });

  it('PATCH enabled: false disables by hand (disabled_reason manual); enabled: true clears the reason', async () => {
    const created = await endpoint(hooks, { url, events: ['template.created'] });
    const disabled = await hooks.update(created.id, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    // Disabling again, or changing another field while disabled, keeps it disabled by hand.
    expect((await hooks.update(created.id, { enabled: false })).body).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    expect((await hooks.update(created.id, { description: 'Paused' })).body).toMatchObject({ enabled: false, disabled_reason: 'manual', description: 'Paused' });
    const enabled = await hooks.update(created.id, { enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await hooks.get(created.id)).body).toMatchObject({ enabled: true, disabled_reason: null });
    // A disabled-at-creation endpoint is enabled the same way.
    const off = await endpoint(hooks, { url, events: ['template.created'], enabled: false });
    expect((await hooks.update(off.id, { enabled: true })).body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('DELETE removes the endpoint: then every route answers 404 WEBHOOK_NOT_FOUND for it', async () => {
    const created = await endpoint(hooks, { url, events: ['template.created'] });
    const sent = await hooks.test(created.id);
    expect(sent.status).toBe(202);
    const removed = await hooks.remove(created.id);
    expect(removed.status).toBe(200);
    expect((await hooks.list()).body.webhooks.map((webhook) => webhook.id)).not.toContain(created.id);
    for (const res of [
      await hooks.get(created.id),
      await hooks.update(created.id, { description: 'x' }),
      await hooks.remove(created.id),
      await hooks.rotate(created.id),
      await hooks.test(created.id),
      await hooks.deliveries(created.id),
      await hooks.retry(created.id, sent.body.id),
    ]) {
      expectFailure(res, 404, 'WEBHOOK_NOT_FOUND');
    }
    // An id that never existed answers the same.
    expectFailure(await hooks.get('wh_00000000000000000000'), 404, 'WEBHOOK_NOT_FOUND');
  });
});

// ---------------------------------------------------------------------------------------

describe('bad input: 400 naming the field, never a 500, never a partial write', () => {
  let o: HooksOrg;
  let hooks: HooksApi;
  let url: string;
  let baseline: WebhookBody;
  beforeAll(async () => {
    o = await hooksOrg('whbad');
    hooks = hooksApi(o);
    url = (await receiver()).url;
    const { secret: _, ...view } = await endpoint(hooks, { url, events: ['template.created'], description: 'Baseline' });
    baseline = view;
  });

  /** Nothing was written: the organization still has just the baseline endpoint, as it was. */
  async function expectUnchanged(): Promise<void> {
    expect((await hooks.list()).body.webhooks).toEqual([baseline]);
  }

  // Addresses a delivery must never reach, and URLs that are not https. The deployment allows
  // loopback (127.0.0.0/8, ::1, localhost) for developers, so [::1] is not among them here.
  const NOT_ALLOWED_URLS = [
    'ftp://example.com/hooks',
    'http://example.com/hooks',
    'https://user:password@example.com/hooks',
    'https://token@example.com/hooks',
    'https://10.0.0.1/hooks',
    'https://172.16.5.4/hooks',
    'https://192.168.1.10/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hooks',
    'https://0.0.0.0/hooks',
    'https://[fc00::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
    'https://[::ffff:a9fe:a9fe]/hooks',
    'https://metadata.google.internal/computeMetadata',
    'https://printer.local/hooks',
    'https://intranet/hooks',
    'https://example.com/hooks#fragment',
  ];
  it.each(NOT_ALLOWED_URLS)('create with url %s: 400 WEBHOOK_URL_NOT_ALLOWED', async (bad) => {
    expectRefused(await hooks.create({ url: bad, events: ['*'] }), 'WEBHOOK_URL_NOT_ALLOWED', 'url');
    await expectUnchanged();
  });

  it.each(NOT_ALLOWED_URLS.slice(0, 8))('PATCH with url %s: 400 WEBHOOK_URL_NOT_ALLOWED, the endpoint unchanged', async (bad) => {
    expectRefused(await hooks.update(baseline.id, { url: bad }), 'WEBHOOK_URL_NOT_ALLOWED', 'url');
    await expectUnchanged();
  });

  const INVALID_CREATES: [string, unknown, string][] = [
    ['url not absolute', { url: 'example.com/hooks', events: ['*'] }, 'url'],
    ['url empty', { url: '', events: ['*'] }, 'url'],
    ['url not a string', { url: 42, events: ['*'] }, 'url'],
    ['url too long', { url: `https://example.com/${'a'.repeat(2048)}`, events: ['*'] }, 'url'],
    ['url missing', { events: ['*'] }, 'url'],
    ['events empty', { url: 'https://example.com/hooks', events: [] }, 'events'],
    ['events of an unknown type', { url: 'https://example.com/hooks', events: ['template.exploded'] }, 'events[0]'],
    ['events of an internal type', { url: 'https://example.com/hooks', events: ['webhook.delivery_due'] }, 'events[0]'],
    ['events repeated', { url: 'https://example.com/hooks', events: ['template.created', 'template.created'] }, 'events'],
    ['events not an array', { url: 'https://example.com/hooks', events: 'template.created' }, 'events'],
    ['events holding a number', { url: 'https://example.com/hooks', events: [1] }, 'events[0]'],
    ['events missing', { url: 'https://example.com/hooks' }, 'events'],
    ['description too long', { url: 'https://example.com/hooks', events: ['*'], description: 'a'.repeat(501) }, 'description'],
    ['description with a control character', { url: 'https://example.com/hooks', events: ['*'], description: 'ring \u0007 bell' }, 'description'],
    ['description not a string', { url: 'https://example.com/hooks', events: ['*'], description: ['a'] }, 'description'],
    ['enabled not a boolean', { url: 'https://example.com/hooks', events: ['*'], enabled: 'yes' }, 'enabled'],
    ['enabled null', { url: 'https://example.com/hooks', events: ['*'], enabled: null }, 'enabled'],
    ['an unknown field', { url: 'https://example.com/hooks', events: ['*'], retries: 3 }, 'retries'],
    ['a secret of the client', { url: 'https://example.com/hooks', events: ['*'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'secret'],
    ['an id of the client', { url: 'https://example.com/hooks', events: ['*'], id: 'wh_mine' }, 'id'],
    ['a disabled_reason', { url: 'https://example.com/hooks', events: ['*'], disabled_reason: 'manual' }, 'disabled_reason'],
  ];
  it.each(INVALID_CREATES)('create with %s: 400 VALIDATION_ERROR', async (_, body, field) => {
    expectRefused(await hooks.create(body), 'VALIDATION_ERROR', field);
    await expectUnchanged();
  });

  it('create with a body that is not a JSON object: 400', async () => {
    expectRefused(await call(runtime.apiUrl, 'POST', `/api/v1/organization/${o.org}/webhooks`, { token: o.keys.hooks, rawBody: '{"url":' }), 'INVALID_JSON');
    expect((await hooks.create(['https://example.com/hooks'])).status).toBe(400);
    expect((await hooks.create(undefined)).status).toBe(400);
    await expectUnchanged();
  });

  const INVALID_PATCHES: [string, unknown, string | undefined][] = [
    ['no field', {}, undefined],
    ['url not absolute', { url: '/hooks' }, 'url'],
    ['url null', { url: null }, 'url'],
    ['events empty', { events: [] }, 'events'],
    ['events of an unknown type', { events: ['template.created', 'nope'] }, 'events[1]'],
    ['events repeated', { events: ['*', '*'] }, 'events'],
    ['events not an array', { events: '*' }, 'events'],
    ['description too long', { description: 'a'.repeat(501) }, 'description'],
    ['description with a control character', { description: 'a\u0000b' }, 'description'],
    ['enabled not a boolean', { enabled: 'false' }, 'enabled'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a secret', { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'secret'],
    ['a disabled_reason', { disabled_reason: 'failing' }, 'disabled_reason'],
    ['a good field beside a bad one', { description: 'Changed', events: [] }, 'events'],
  ];
  it.each(INVALID_PATCHES)('PATCH with %s: 400 VALIDATION_ERROR, the endpoint unchanged', async (_, body, field) => {
    expectRefused(await hooks.update(baseline.id, body), 'VALIDATION_ERROR', field);
    await expectUnchanged();
  });

  const INVALID_QUERIES: [string, string][] = [
    ['?status=delivered', 'status'],
    ['?status=', 'status'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?cursor=garbage', 'cursor'],
    [`?cursor=${Buffer.from(JSON.stringify({ a: 'dlv_x', f: 'y' })).toString('base64url')}`, 'cursor'],
    ['?page=2', 'page'],
  ];
  it.each(INVALID_QUERIES)('deliveries with query %s: 400 VALIDATION_ERROR', async (query, field) => {
    expectRefused(await hooks.deliveries(baseline.id, query), 'VALIDATION_ERROR', field);
  });

  it('ids that are not webhook or delivery ids: 404, not a 500', async () => {
    for (const res of [await hooks.get('nope'), await hooks.update('nope', { description: 'x' }), await hooks.test('nope'), await hooks.deliveries('nope')]) {
      expect(res.status).toBe(404);
    }
    expectFailure(await hooks.retry(baseline.id, 'nope'), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
    await expectUnchanged();
  });
});

// ---------------------------------------------------------------------------------------

describe('at most 10 endpoints per organization', () => {
  // A type these organizations never emit: their endpoints receive nothing, so the shared dispatcher is not kept busy.
  const QUIET = ['recording.upload_failed'];

  it('the 11th is refused with 409 WEBHOOK_LIMIT_REACHED; after deleting one, creating works again', async () => {
    const o = await hooksOrg('whlimit');
    const hooks = hooksApi(o);
    const { url } = await receiver();
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => endpoint(hooks, { url, events: QUIET, description: `#${i}` })));
    expectFailure(await hooks.create({ url, events: QUIET }), 409, 'WEBHOOK_LIMIT_REACHED');
    const ids = (await hooks.list()).body.webhooks.map((webhook) => webhook.id);
    expect([...ids].sort()).toEqual(created.map((webhook) => webhook.id).sort());
    // A disabled endpoint counts too.
    expect((await hooks.update(ids[0], { enabled: false })).status).toBe(200);
    expectFailure(await hooks.create({ url, events: QUIET, enabled: false }), 409, 'WEBHOOK_LIMIT_REACHED');

    expect((await hooks.remove(ids[3])).status).toBe(200);
    const replacement = await endpoint(hooks, { url, events: QUIET });
    expectFailure(await hooks.create({ url, events: QUIET }), 409, 'WEBHOOK_LIMIT_REACHED');
    expect((await hooks.list()).body.webhooks.map((webhook) => webhook.id)).toEqual([...ids.filter((id) => id !== ids[3]), replacement.id]);
  });

  it('twelve creates at once: ten endpoints, two 409s, no 500', async () => {
    const o = await hooksOrg('whrace');
    const hooks = hooksApi(o);
    const { url } = await receiver();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => hooks.create({ url, events: QUIET, description: `#${i}` })));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(10).fill(201), 409, 409]);
    expect((await hooks.list()).body.webhooks).toHaveLength(10);
  });
});

// ---------------------------------------------------------------------------------------

describe('delivery: the subscribed events reach the endpoint, signed', () => {
  let o: HooksOrg;
  let hooks: HooksApi;
  let subscribed: { hook: CreatedWebhookBody; at: Receiver };
  let everything: { hook: CreatedWebhookBody; at: Receiver };
  let disabled: { hook: CreatedWebhookBody; at: Receiver };
  let templates: string[];
  beforeAll(async () => {
    o = await hooksOrg('whdeliver');
    hooks = hooksApi(o);
    const [a, b, c] = await Promise.all([receiver(), receiver(), receiver()]);
    subscribed = { at: a, hook: await endpoint(hooks, { url: a.url, events: ['template.created'] }) };
    everything = { at: b, hook: await endpoint(hooks, { url: b.url, events: ['*'] }) };
    disabled = { at: c, hook: await endpoint(hooks, { url: c.url, events: ['*'], enabled: false }) };
    // One template created, changed and deleted, then another created: the last is the
    // subscribed endpoint's cue that the earlier events were handled.
    const first = await createTemplate(o, `whd-first-${o.id}`);
    await changeTemplate(o, 'PATCH', first);
    await changeTemplate(o, 'DELETE', first);
    const second = await createTemplate(o, `whd-second-${o.id}`);
    templates = [first, second];
    await subscribed.at.waitFor(2);
    // Everything `*` is sent: the four template events and the disabled endpoint's creation.
    const expected = [`template.created ${first}`, `template.updated ${first}`, `template.deleted ${first}`, `template.created ${second}`, `webhook.created ${disabled.hook.id}`];
    await eventually(async () => everything.at.received.map(payloadOf).map((event) => `${event.type} ${event.resource.id}`), (seen) => expected.every((item) => seen.includes(item)));
  });

  /** The subscribed endpoint's request for a template's creation (deliveries come in no promised order). */
  const arrivalOf = (templateId: string) => subscribed.at.received.find((d) => payloadOf(d).resource.id === templateId)!;

  it('a subscribed event arrives once, verified by standardwebhooks, as the event envelope with webhook-id = the event id', async () => {
    expect(subscribed.at.received).toHaveLength(2);
    const [first, second] = templates.map(arrivalOf);
    const payload = verified(subscribed.hook.secret, first);
    expect(payload).toEqual(payloadOf(first));
    expect(payload).toEqual({
      id: expect.stringMatching(EVENT_ID),
      type: 'template.created',
      occurred_at: expect.stringMatching(TIMESTAMP),
      org_id: o.org,
      actor: { kind: 'api_key', id: apiKeyIdFromHash(hashApiKey(o.keys.hooks)) },
      correlation_id: `whd-first-${o.id}`,
      resource: { type: 'template', id: templates[0] },
      data: expect.any(Object),
    });
    expect(webhookIdOf(first)).toBe(payload.id);
    expect(first).toMatchObject({ method: 'POST', path: '/hooks' });
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(signaturesOf(first)).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/)]);
    expect(verified(subscribed.hook.secret, second)).toMatchObject({ type: 'template.created', resource: { type: 'template', id: templates[1] }, correlation_id: `whd-second-${o.id}` });
    // The event is the one the pipeline published.
    expect(publishedEvents(o.org).find((event) => event.id === payload.id)).toEqual(payload);
  });

  it("another endpoint's secret does not verify it, nor does a changed body", () => {
    const [first] = subscribed.at.received;
    expect(() => verified(everything.hook.secret, first)).toThrow();
    expect(() => verified(subscribed.hook.secret, { ...first, body: first.body.replace('template.created', 'template.deleted') })).toThrow();
  });

  it('the delivery list records each delivery: succeeded at the first attempt, the event named', async () => {
    const deliveries = await deliveriesWhen(hooks, subscribed.hook.id, (list) => list.length === 2 && list.every((d) => d.status === 'succeeded'));
    // Newest first: the second template's event, then the first's.
    expect(deliveries).toEqual(
      [templates[1], templates[0]].map((templateId) => payloadOf(arrivalOf(templateId))).map((event) => ({
        id: expect.stringMatching(DELIVERY_ID),
        event_id: event.id,
        event_type: 'template.created',
        status: 'succeeded',
        attempts: 1,
        created_at: expect.stringMatching(TIMESTAMP),
        last_attempt_at: expect.stringMatching(TIMESTAMP),
        next_attempt_at: null,
        response_status: 200,
        response_ms: expect.any(Number),
        error: null,
      })),
    );
  });

  it('types the endpoint does not subscribe to never reach it', async () => {
    expect(subscribed.at.received.map((d) => payloadOf(d).type)).toEqual(['template.created', 'template.created']);
    // The fan-out made no delivery of them either.
    expect((await hooks.deliveries(subscribed.hook.id)).body.deliveries.map((d) => d.event_type)).toEqual(['template.created', 'template.created']);
  });

  it('`*` receives every type, each verified', async () => {
    const events = everything.at.received.map((d) => verified(everything.hook.secret, d));
    const ofFirst = events.filter((event) => event.resource.id === templates[0]).map((event) => event.type);
    expect(ofFirst.sort()).toEqual(['template.created', 'template.deleted', 'template.updated']);
    expect(events.filter((event) => event.resource.id === templates[1]).map((event) => event.type)).toEqual(['template.created']);
    // Its own creation, and the endpoints created after it, are events too.
    expect(events).toContainEqual(expect.objectContaining({ type: 'webhook.created', resource: { type: 'webhook', id: disabled.hook.id } }));
    expect(new Set(everything.at.received.map(webhookIdOf)).size).toBe(everything.at.received.length);
  });

  it('a disabled endpoint receives nothing, has no delivery, and its test is 409 WEBHOOK_DISABLED', async () => {
    expect(disabled.at.received).toEqual([]);
    expect((await hooks.deliveries(disabled.hook.id)).body.deliveries).toEqual([]);
    expectFailure(await hooks.test(disabled.hook.id), 409, 'WEBHOOK_DISABLED');
  });

  it('an endpoint disabled later stops receiving; enabled again, it receives again', async () => {
    expect((await hooks.update(subscribed.hook.id, { enabled: false })).status).toBe(200);
    const whileDisabled = await createTemplate(o);
    // The `*` endpoint's copy of the same event tells when it was handled.
    await eventually(async () => everything.at.received.map(payloadOf), (events) => events.some((event) => event.resource.id === whileDisabled));
    expect((await hooks.update(subscribed.hook.id, { enabled: true })).status).toBe(200);
    const afterwards = await createTemplate(o);
    await subscribed.at.waitFor(3);
    const received = subscribed.at.received.map((d) => verified(subscribed.hook.secret, d).resource.id);
    expect(received).toHaveLength(3);
    expect(received).not.toContain(whileDisabled);
    expect(new Set(received)).toEqual(new Set([...templates, afterwards]));
  });
});

// ---------------------------------------------------------------------------------------

describe('exactly once when the receiver answers 2xx at the first attempt', () => {
  it('N events: exactly N requests, distinct webhook-ids, each delivery succeeded at attempt 1', async () => {
    const N = 6;
    const o = await hooksOrg('whonce');
    const hooks = hooksApi(o);
    const at = await receiver();
    const hook = await endpoint(hooks, { url: at.url, events: ['template.created'] });
    const templateIds = await Promise.all(Array.from({ length: N }, () => createTemplate(o)));
    await at.waitFor(N);
    const deliveries = await deliveriesWhen(hooks, hook.id, (list) => list.length === N && list.every((d) => d.status === 'succeeded'));
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual(Array(N).fill(['succeeded', 1]));
    // A test event sent after them arrives after anything still on its way for them.
    const sentinel = await hooks.test(hook.id);
    expect(sentinel.status).toBe(202);
    await eventually(async () => at.received.map(webhookIdOf), (ids) => ids.includes(sentinel.body.event_id));
    const events = at.received.map((d) => verified(hook.secret, d));
    expect(events).toHaveLength(N + 1);
    expect(new Set(at.received.map(webhookIdOf)).size).toBe(N + 1);
    expect(events.filter((event) => event.type === 'template.created').map((event) => event.resource.id).sort()).toEqual([...templateIds].sort());
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(events.filter((event) => event.type === 'template.created').map((event) => event.id)));
  });
});

// ---------------------------------------------------------------------------------------

describe('retries: a failed attempt is tried again, same webhook-id, same body', () => {
  let o: HooksOrg;
  let hooks: HooksApi;
  beforeAll(async () => {
    o = await hooksOrg('whretry');
    hooks = hooksApi(o);
  });

  /**
   * Sends a test event to an endpoint at a receiver that answers the first attempt with
   * `first` and holds its answer to the second (200) until the test opens the latch.
   */
  async function failOnce(first: Responder) {
    const second = latch();
    const at = await receiver((n, delivery) => (n === 1 ? first(n, delivery) : second.opened.then(() => 200)));
    const hook = await endpoint(hooks, { url: at.url, events: ['template.deleted'] });
    const sent = await hooks.test(hook.id);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ id: expect.stringMatching(DELIVERY_ID), event_type: 'webhook.test', status: 'pending', attempts: 0, error: null });
    return { at, hook, delivery: sent.body, release: second.open };
  }

  /** Both attempts carried the same event, signed, under the same webhook-id. */
  function expectSameDeliveryTwice(at: Receiver, secret: string, eventId: string): void {
    expect(at.received).toHaveLength(2);
    expect(at.received.map(webhookIdOf)).toEqual([eventId, eventId]);
    expect(at.received[1].body).toBe(at.received[0].body);
    for (const d of at.received) expect(verified(secret, d)).toMatchObject({ id: eventId, type: 'webhook.test' });
  }

  it('500, then 200: the first error is recorded while pending; the delivery succeeds at attempt 2', async () => {
    const { at, hook, delivery, release } = await failOnce(() => 500);
    // The second attempt is under way (held): the record shows the first one's outcome.
    await at.waitFor(2);
    const pending = await deliveryWhen(hooks, hook.id, delivery.id, (d) => d.attempts === 1);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, error: 'non_2xx', last_attempt_at: expect.stringMatching(TIMESTAMP), next_attempt_at: expect.stringMatching(TIMESTAMP) });
    release();
    const done = await deliveryWhen(hooks, hook.id, delivery.id, (d) => d.status !== 'pending');
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200, error: null, next_attempt_at: null });
    expectSameDeliveryTwice(at, hook.secret, delivery.event_id);
  });

  it('a 301 redirect is not followed: a failure, its Location never called', async () => {
    const target = await receiver();
    const { at, hook, delivery, release } = await failOnce(() => ({ status: 301, headers: { location: target.url } }));
    await at.waitFor(2);
    const pending = await deliveryWhen(hooks, hook.id, delivery.id, (d) => d.attempts === 1);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, response_status: 301, error: 'non_2xx' });
    release();
    expect(await deliveryWhen(hooks, hook.id, delivery.id, (d) => d.status !== 'pending')).toMatchObject({ status: 'succeeded', attempts: 2 });
    expectSameDeliveryTwice(at, hook.secret, delivery.event_id);
    expect(target.received).toEqual([]);
  });

  it('a receiver that never answers: error timeout after 10 s, then the retry', async () => {
    const { hooks: own, at, hook, delivery, seenBySecondAttempt } = await timeoutScenario();
    const during = await seenBySecondAttempt;
    expect(during).toMatchObject({ status: 'pending', attempts: 1, response_status: null, error: 'timeout', next_attempt_at: expect.stringMatching(TIMESTAMP) });
    expect(during!.response_ms).toBeGreaterThanOrEqual(9_000);
    const done = await deliveryWhen(own, hook.id, delivery.id, (d) => d.status !== 'pending', { alsoWaitingMs: WEBHOOK_TIMEOUT_MS });
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200, error: null });
    expectSameDeliveryTwice(at, hook.secret, delivery.event_id);
  }, 40_000);

  it('nothing listening (connection refused): error connection_refused, retried while pending', async () => {
    const hook = await endpoint(hooks, { url: await closedPortUrl(), events: ['template.deleted'] });
    const sent = await hooks.test(hook.id);
    expect(sent.status).toBe(202);
    const refused = await deliveryWhen(hooks, hook.id, sent.body.id, (d) => d.attempts >= 2);
    expect(refused).toMatchObject({ status: 'pending', response_status: null, response_ms: expect.any(Number), error: 'connection_refused', next_attempt_at: expect.stringMatching(TIMESTAMP) });
    // Deleted, the endpoint receives nothing more: its pending delivery goes with it.
    expect((await hooks.remove(hook.id)).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------

describe('secret rotation: the old secret signs beside the new one for 24 hours', () => {
  it('after rotate-secret, each delivery verifies with the new secret and with the old one, alone', async () => {
    const o = await hooksOrg('whrotate');
    const hooks = hooksApi(o);
    const at = await receiver();
    const hook = await endpoint(hooks, { url: at.url, events: ['template.created'] });
    const old = hook.secret;
    expect((await hooks.test(hook.id)).status).toBe(202);
    const [before] = await at.waitFor(1);
    expect(signaturesOf(before)).toHaveLength(1);
    verified(old, before);

    const rotated = await hooks.rotate(hook.id);
    const rotatedAt = Date.now();
    expect(rotated.status).toBe(200);
    const { secret: _, ...view } = hook;
    expect(rotated.body).toEqual({
      ...view,
      updated_at: expect.stringMatching(TIMESTAMP),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previous_secret_expires_at: expect.stringMatching(TIMESTAMP),
    });
    const fresh = rotated.body.secret;
    expect(fresh).not.toBe(old);
    expect(Math.abs(Date.parse(rotated.body.previous_secret_expires_at) - (rotatedAt + DAY_MS))).toBeLessThan(60_000);
    expectNoSecret((await hooks.get(hook.id)).body, old, fresh);
    // The delivery made before the rotation was signed by the old secret only.
    expect(() => verified(fresh, before)).toThrow();

    expect((await hooks.test(hook.id)).status).toBe(202);
    await createTemplate(o);
    await at.waitFor(3);
    for (const after of at.received.slice(1)) {
      const signatures = signaturesOf(after);
      expect(signatures).toHaveLength(2);
      for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(verified(fresh, after)).toEqual(payloadOf(after));
      expect(verified(old, after)).toEqual(payloadOf(after));
    }

    // A second rotation ends the first secret's overlap at once: only the last two sign.
    const again = await hooks.rotate(hook.id);
    expect(again.status).toBe(200);
    const newest = again.body.secret;
    expect(new Set([old, fresh, newest]).size).toBe(3);
    expect((await hooks.test(hook.id)).status).toBe(202);
    const [, , , last] = await at.waitFor(4);
    expect(signaturesOf(last)).toHaveLength(2);
    verified(newest, last);
    verified(fresh, last);
    expect(() => verified(old, last)).toThrow();
  });
});

// ---------------------------------------------------------------------------------------

describe('isolation between organizations', () => {
  let a: HooksOrg;
  let b: HooksOrg;
  let atA: Receiver;
  let atB: Receiver;
  let hookA: CreatedWebhookBody;
  let hookB: CreatedWebhookBody;
  let deliveryB: DeliveryBody;
  beforeAll(async () => {
    [a, b] = await Promise.all([hooksOrg('whisoa'), hooksOrg('whisob')]);
    [atA, atB] = await Promise.all([receiver(), receiver()]);
    hookA = await endpoint(hooksApi(a), { url: atA.url, events: ['*'] });
    hookB = await endpoint(hooksApi(b), { url: atB.url, events: ['*'] });
    deliveryB = (await hooksApi(b).test(hookB.id)).body;
  });

  it("one organization's events never reach another's endpoint", async () => {
    const templateA = await createTemplate(a);
    const testA = (await hooksApi(a).test(hookA.id)).body;
    await eventually(async () => atA.received.map(payloadOf), (events) => events.some((e) => e.resource.id === templateA) && events.some((e) => e.id === testA.event_id));
    // B's own test event, sent after A's events, tells when B's receiver has had its share.
    const testB = (await hooksApi(b).test(hookB.id)).body;
    await eventually(async () => atB.received.map(webhookIdOf), (ids) => ids.includes(testB.event_id));
    const eventsA = atA.received.map((d) => verified(hookA.secret, d));
    const eventsB = atB.received.map((d) => verified(hookB.secret, d));
    expect(eventsA.every((event) => event.org_id === a.org)).toBe(true);
    expect(eventsB.every((event) => event.org_id === b.org)).toBe(true);
    const idsA = new Set(eventsA.map((event) => event.id));
    expect(eventsB.filter((event) => idsA.has(event.id))).toEqual([]);
    expect(eventsB.map((event) => event.resource.id)).not.toContain(templateA);
  });

  it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND on every route", async () => {
    const own = hooksApi(a);
    for (const res of [
      await own.get(hookB.id),
      await own.update(hookB.id, { url: atA.url }),
      await own.remove(hookB.id),
      await own.rotate(hookB.id),
      await own.test(hookB.id),
      await own.deliveries(hookB.id),
      await own.retry(hookB.id, deliveryB.id),
    ]) {
      expectFailure(res, 404, 'WEBHOOK_NOT_FOUND');
    }
    expect((await own.list()).body.webhooks.map((webhook) => webhook.id)).toEqual([hookA.id]);
    // B's delivery id under A's own endpoint is no delivery of it.
    expectFailure(await own.retry(hookA.id, deliveryB.id), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
  });

  it("B's endpoint is untouched by all of that: same fields, same secret, still receiving", async () => {
    const { secret: _, ...view } = hookB;
    expect((await hooksApi(b).get(hookB.id)).body).toEqual(view);
    const testB = (await hooksApi(b).test(hookB.id)).body;
    await eventually(async () => atB.received.map(webhookIdOf), (ids) => ids.includes(testB.event_id));
    const last = atB.received.find((d) => webhookIdOf(d) === testB.event_id)!;
    expect(signaturesOf(last)).toHaveLength(1);
    expect(verified(hookB.secret, last).org_id).toBe(b.org);
    expect(atA.received.map(webhookIdOf)).not.toContain(testB.event_id);
  });
});

// ---------------------------------------------------------------------------------------

describe('replay: retry a delivery', () => {
  it('retry of a succeeded delivery: 202 pending, the same event again (same webhook-id, same body), succeeded at attempt 2', async () => {
    const o = await hooksOrg('whreplay');
    const hooks = hooksApi(o);
    const at = await receiver();
    const hook = await endpoint(hooks, { url: at.url, events: ['template.created'] });
    const sent = (await hooks.test(hook.id)).body;
    await deliveryWhen(hooks, hook.id, sent.id, (d) => d.status === 'succeeded');

    const retried = await hooks.retry(hook.id, sent.id);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: sent.id, event_id: sent.event_id, event_type: 'webhook.test', status: 'pending', attempts: 1 });
    await at.waitFor(2);
    const done = await deliveryWhen(hooks, hook.id, sent.id, (d) => d.status === 'succeeded' && d.attempts === 2);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200, error: null });
    expect(at.received.map(webhookIdOf)).toEqual([sent.event_id, sent.event_id]);
    expect(at.received[1].body).toBe(at.received[0].body);
    for (const d of at.received) verified(hook.secret, d);
    // Still one delivery: the replay is another attempt of it, not a new one.
    expect((await hooks.deliveries(hook.id)).body.deliveries.map((d) => d.id)).toEqual([sent.id]);

    // An unknown delivery id, well formed or not: 404.
    expectFailure(await hooks.retry(hook.id, `dlv_${'0'.repeat(32)}`), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
    expectFailure(await hooks.retry(hook.id, 'dlv_unknown'), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
    // A delivery of another endpoint of the organization is no delivery of this one.
    const other = await endpoint(hooks, { url: at.url, events: ['template.created'] });
    expectFailure(await hooks.retry(other.id, sent.id), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
    // A disabled endpoint is sent nothing, a replay neither.
    expect((await hooks.update(hook.id, { enabled: false })).status).toBe(200);
    expectFailure(await hooks.retry(hook.id, sent.id), 409, 'WEBHOOK_DISABLED');
    expect(at.received).toHaveLength(2);
  });
});

// ---------------------------------------------------------------------------------------

describe('the deliveries list: newest first, by status, in pages', () => {
  let o: HooksOrg;
  let hooks: HooksApi;
  let hook: CreatedWebhookBody;
  /** Oldest first: succeeded, pending (its receiver keeps failing it), succeeded. */
  let sent: DeliveryBody[];
  beforeAll(async () => {
    o = await hooksOrg('whlist');
    hooks = hooksApi(o);
    // The receiver fails, for good, the first event it is sent once told to: the second.
    let failNext = false;
    let failing: string | undefined;
    const at = await receiver((_, delivery) => {
      if (failNext && !failing) failing = webhookIdOf(delivery);
      return webhookIdOf(delivery) === failing ? 503 : 200;
    });
    hook = await endpoint(hooks, { url: at.url, events: ['template.deleted'] });
    sent = [];
    for (let i = 0; i < 3; i++) {
      failNext = i === 1;
      const res = await hooks.test(hook.id);
      expect(res.status).toBe(202);
      sent.push(res.body);
      // One at a time: each is attempted before the next is sent.
      await deliveryWhen(hooks, hook.id, res.body.id, (d) => d.attempts >= 1);
    }
    expect(failing).toBe(sent[1].event_id);
  });

  const ids = (res: ApiResponse<DeliveryList>) => res.body.deliveries.map((d) => d.id);

  it('newest first, each in its status', async () => {
    const res = await hooks.deliveries(hook.id);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([sent[2].id, sent[1].id, sent[0].id]);
    expect(res.body.deliveries.map((d) => d.status)).toEqual(['succeeded', 'pending', 'succeeded']);
    expect(res.body.deliveries[1]).toMatchObject({ response_status: 503, error: 'non_2xx', next_attempt_at: expect.stringMatching(TIMESTAMP) });
    expect(res.body.pagination).toEqual({ limit: 20, next_cursor: null });
  });

  it('status filters the list', async () => {
    expect(ids(await hooks.deliveries(hook.id, '?status=succeeded'))).toEqual([sent[2].id, sent[0].id]);
    expect(ids(await hooks.deliveries(hook.id, '?status=pending'))).toEqual([sent[1].id]);
    expect(ids(await hooks.deliveries(hook.id, '?status=failed'))).toEqual([]);
  });

  /** Every page at `limit` 1, following next_cursor. */
  async function pages(query: string) {
    const seen: DeliveryBody[][] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse<DeliveryList> = await hooks.deliveries(hook.id, `?limit=1${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(1);
      seen.push(res.body.deliveries);
      cursor = res.body.pagination.next_cursor;
      expect(seen.length).toBeLessThanOrEqual(4);
    } while (cursor);
    return seen;
  }

  it('limit 1: one delivery a page, no duplicates, next_cursor null at the end', async () => {
    expect((await pages('')).map((page) => page.map((d) => d.id))).toEqual([[sent[2].id], [sent[1].id], [sent[0].id]]);
    expect((await pages('&status=succeeded')).map((page) => page.map((d) => d.id))).toEqual([[sent[2].id], [sent[0].id]]);
  });

  it("a cursor of another list is refused: another status, another endpoint's, the audit log's", async () => {
    const first = await hooks.deliveries(hook.id, '?limit=1&status=succeeded');
    const cursor = encodeURIComponent(first.body.pagination.next_cursor!);
    expectRefused(await hooks.deliveries(hook.id, `?limit=1&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');
    expectRefused(await hooks.deliveries(hook.id, `?limit=1&status=pending&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');

    const other = await endpoint(hooks, { url: 'http://127.0.0.1:9/other', events: ['template.deleted'] });
    expectRefused(await hooks.deliveries(other.id, `?limit=1&status=succeeded&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');
    const unfiltered = encodeURIComponent((await hooks.deliveries(hook.id, '?limit=1')).body.pagination.next_cursor!);
    expectRefused(await hooks.deliveries(other.id, `?cursor=${unfiltered}`), 'VALIDATION_ERROR', 'cursor');

    const audit = await eventually(
      () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?limit=1`, { token: o.keys.audit }),
      (res) => res.status === 200 && !!res.body.pagination.next_cursor,
    );
    expectRefused(await hooks.deliveries(hook.id, `?cursor=${encodeURIComponent(audit.body.pagination.next_cursor)}`), 'VALIDATION_ERROR', 'cursor');
  });
});

// ---------------------------------------------------------------------------------------

describe('audit: changes of endpoints are in the audit log, with who made them, never a secret or URL', () => {
  it('webhook.created, updated, secret_rotated and deleted, each with its actor and request', async () => {
    const o = await hooksOrg('whaudit');
    const at = await receiver();
    const owner = await idTokenFor(o.people.owner);
    const admin = await idTokenFor(o.people.admin);
    const byOwner = hooksApi(o, owner);
    const byKey = hooksApi(o);
    const byAdmin = hooksApi(o, admin);
    const correlation = (step: string) => `wha-${step}-${o.id}`;

    const created = await byOwner.create({ url: `${at.url}?token=receiver-secret-${o.id}`, events: ['template.created'] }, correlation('create'));
    expect(created.status).toBe(201);
    const hook = created.body;
    expect((await byKey.update(hook.id, { description: 'Renamed', url: `${at.url}/v2?token=receiver-secret-${o.id}` }, correlation('update'))).status).toBe(200);
    const rotated = await byAdmin.rotate(hook.id, correlation('rotate'));
    expect(rotated.status).toBe(200);
    expect((await byKey.remove(hook.id, correlation('delete'))).status).toBe(200);

    const keyActor = { kind: 'api_key', id: apiKeyIdFromHash(hashApiKey(o.keys.hooks)) };
    const read = () => call<{ entries: AuditEntry[] }>(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?resource_id=${hook.id}`, { token: o.keys.audit });
    const res = await eventually(read, (r) => r.status === 200 && r.body.entries.length >= 4);
    expect(res.body.entries).toEqual([
      expect.objectContaining({ type: 'webhook.deleted', actor: keyActor, correlation_id: correlation('delete'), resource: { type: 'webhook', id: hook.id } }),
      expect.objectContaining({ type: 'webhook.secret_rotated', actor: { kind: 'user', id: o.people.admin.id }, correlation_id: correlation('rotate'), resource: { type: 'webhook', id: hook.id } }),
      expect.objectContaining({ type: 'webhook.updated', actor: keyActor, correlation_id: correlation('update'), resource: { type: 'webhook', id: hook.id } }),
      expect.objectContaining({ type: 'webhook.created', actor: { kind: 'user', id: o.people.owner.id }, correlation_id: correlation('create'), resource: { type: 'webhook', id: hook.id } }),
    ]);
    expect([...res.body.entries[2].changes].sort()).toEqual(['description', 'url']);

    // Neither the log nor the events themselves carry a secret or the endpoint's URL (it may hold the receiver's token).
    const events = publishedEvents(o.org).filter((event) => event.resource.id === hook.id);
    expect(events.map((event) => event.type)).toEqual(['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted']);
    for (const body of [res.body, events]) {
      expectNoSecret(body, hook.secret, rotated.body.secret);
      expect(JSON.stringify(body)).not.toContain(`receiver-secret-${o.id}`);
      expect(JSON.stringify(body)).not.toContain(at.url);
    }
  });
});
