import { Webhook } from 'standardwebhooks';
import { localWebhookSecretCipher } from '../../infra/local/profile-key';
import { retryWebhookDelivery } from '../../shared/domain/webhooks/retry-webhook-delivery';
import {
  cachedSecrets,
  dispatchWebhookDelivery,
  type DispatchDeps,
  type DispatchOutcome,
  type DispatchRef,
} from '../../shared/domain/webhooks/dispatch-webhook-delivery';
import { fanOutWebhookDeliveries } from '../../shared/domain/webhooks/fan-out-webhook-deliveries';
import { RETRY_SCHEDULE_SECONDS } from '../../shared/domain/webhooks/retry-schedule';
import { type WebhookDeps } from '../../shared/domain/webhooks/webhook-changes';
import { testWebhook } from '../../shared/domain/webhooks/test-webhook';
import { rotateWebhookSecret } from '../../shared/domain/webhooks/rotate-webhook-secret';
import { deleteWebhook } from '../../shared/domain/webhooks/delete-webhook';
import { updateWebhook } from '../../shared/domain/webhooks/update-webhook';
import { createWebhook } from '../../shared/domain/webhooks/create-webhook';
import { getWebhook } from '../../shared/domain/webhooks/get-webhook';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { ConflictError, NotFoundError } from '../../shared/core/errors';
import { logger } from '../../shared/observability/logger';
import type { BusinessMetric, CountMetric } from '../../shared/observability/metric-names';
import type { CreateWebhookBody } from '../../shared/schemas/webhooks';
import type { TableContext } from '../../shared/storage/dynamo';
import { getDelivery, queryDeliveries } from '../../shared/storage/webhook-deliveries';
import type { DeliveryRecord } from '../../shared/storage/webhook-items';
import { getWebhook as storedGetWebhook } from '../../shared/storage/webhooks';
import { postWebhook, type SendOutcome, type WebhookRequest } from '../../shared/webhooks/http-sender';
import { localDeployment, unique } from '../support/api';
import { domainEvent } from '../support/events';
import { isolatedTable } from '../support/invite-mail';
import { startReceiver } from '../support/webhook-receiver';

/**
 * Webhook endpoints, fan-out, dispatch and retries (shared/domain/webhooks) called directly,
 * with a clock the tests move (the whole 30-hour retry schedule, the 3-day disabling and the
 * 24-hour secret overlap, without sleeping), the jitter pinned, and a sender that records
 * each request and answers as the test scripts it (the real sender against a loopback
 * receiver where what happens on the wire matters). They run on a table of their own on the
 * emulator, which no event pipeline reads, so no deployed dispatcher races them for the
 * deliveries they make.
 */
const LOCAL = { allowLocalUrls: true };
const DAY_MS = 86_400_000;
const LEASE_SECONDS = 60; // dispatch.ts: how long one attempt holds its delivery

/** A clock that starts at the real time (so TTLs lie in the future) and moves only when a test moves it. */
function testClock() {
  let current = Date.now();
  return {
    now: () => new Date(current),
    set: (at: string | number) => {
      current = typeof at === 'number' ? at : Date.parse(at);
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
}

const cipher = localWebhookSecretCipher(localDeployment().dataDir);
let db: TableContext;
let clock: ReturnType<typeof testClock>;
let deps: WebhookDeps;

beforeAll(async () => {
  db = await isolatedTable('webhooks');
});

beforeEach(() => {
  clock = testClock();
  deps = { db, now: clock.now, cipher, policy: LOCAL };
  // The dispatcher logs every attempt; the tests read what it stored instead.
  jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

const newOrg = () => `org_wh_${unique()}`;

const answered = (status: number, ms = 12): SendOutcome => ({
  ok: status >= 200 && status < 300,
  status,
  ms,
  error: status >= 200 && status < 300 ? null : 'non_2xx',
});
const OK = answered(200);
const SERVER_ERROR = answered(503);

type Sender = jest.Mock<Promise<SendOutcome>, [WebhookRequest]>;

/** A sender that records every request and answers the n-th (1-based) as `script` says. */
function fakeSender(script: (n: number) => SendOutcome = () => OK): Sender {
  const send: Sender = jest.fn(async (_request: WebhookRequest) => script(send.mock.calls.length));
  return send;
}

/** A sender whose requests all wait until the test releases them (an attempt under way). */
function heldSender() {
  let release!: () => void;
  let markStarted!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const send: Sender = jest.fn(async (_request: WebhookRequest) => {
    markStarted();
    await released;
    return OK;
  });
  return { send, release, started };
}

function dispatchDeps(send: DispatchDeps['send'], random?: () => number, countMetric: CountMetric = () => {}): DispatchDeps {
  return { db, now: clock.now, secretsOf: cachedSecrets(cipher), send, countMetric, ...(random ? { random } : {}) };
}

/** Records the business metrics a dispatch counts, by name. */
function metricCounter() {
  const counts: Partial<Record<BusinessMetric, number>> = {};
  const countMetric: CountMetric = (metric, count = 1) => void (counts[metric] = (counts[metric] ?? 0) + count);
  return { counts, countMetric };
}

/** The real sender, allowed to reach loopback, with a short budget so a hanging receiver times out quickly. */
const realSender =
  (timeoutMs = 500) =>
  (request: WebhookRequest) =>
    postWebhook(request, { policy: LOCAL, timeoutMs });

async function endpoint(orgId: string, body: Partial<CreateWebhookBody> = {}) {
  return createWebhook(deps, orgId, { url: 'http://127.0.0.1:9/hooks', description: '', events: ['*'], enabled: true, ...body });
}

async function storedDelivery(ref: Pick<DispatchRef, 'orgId' | 'webhookId' | 'deliveryId'>): Promise<DeliveryRecord> {
  const delivery = await getDelivery(db, ref.orgId, ref.webhookId, ref.deliveryId);
  if (!delivery) throw new Error(`delivery ${ref.deliveryId} is gone`);
  return delivery;
}

/** The message the stream would queue for a delivery as it now is (its current dispatch id). */
async function dueRef(orgId: string, webhookId: string, deliveryId: string): Promise<DispatchRef> {
  const delivery = await storedDelivery({ orgId, webhookId, deliveryId });
  return { orgId, webhookId, deliveryId, dispatchId: delivery.dispatch_id };
}

/** A new pending delivery to the endpoint (its test event, made at the clock's time), as the stream would queue it. */
async function newDue(orgId: string, webhookId: string): Promise<DispatchRef> {
  const view = await testWebhook({ db, now: clock.now }, orgId, webhookId);
  return dueRef(orgId, webhookId, view.id);
}

async function deliveriesOf(orgId: string, webhookId: string): Promise<DeliveryRecord[]> {
  return (await queryDeliveries(db, { orgId, webhookId, limit: 100 })).deliveries;
}

/** What a Standard Webhooks receiver holding `secret` makes of a request, on its own clock at `atMs` (standardwebhooks refuses timestamps 5 minutes off). */
function verifiedAt(secret: string, request: WebhookRequest, atMs: number): unknown {
  const now = jest.spyOn(Date, 'now').mockReturnValue(atMs);
  try {
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    now.mockRestore();
  }
}

function templateCreated(orgId: string, overrides: Partial<DomainEvent> = {}): DomainEvent {
  return domainEvent({
    type: 'template.created',
    org_id: orgId,
    resource: { type: 'template', id: 'tpl_1' },
    data: { name: 'Weekly' },
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('the retry schedule, under a moving clock', () => {
  it('a delivery that always fails is attempted 8 times, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 12 h apart (±10 %), then failed', async () => {
    const orgId = newOrg();
    const { id: webhookId, secret } = await endpoint(orgId, { events: ['template.created'] });
    const event = templateCreated(orgId);
    expect(await fanOutWebhookDeliveries({ db, now: clock.now }, event)).toBe(1);
    const [created] = await deliveriesOf(orgId, webhookId);
    const ref = await dueRef(orgId, webhookId, created.id);

    // The jitter at its extremes and between them, one draw per scheduled retry.
    const draws = [0, 0.999_999, 0.5, 0.25, 0.999_999, 0, 0.75];
    const send = fakeSender(() => SERVER_ERROR);
    const dispatch = dispatchDeps(send, () => draws.shift() ?? Number.NaN);
    const attemptTimes: number[] = [];
    const delays: number[] = [];

    for (let attempt = 1; attempt <= 8; attempt += 1) {
      attemptTimes.push(clock.now().getTime());
      // The queue brings back the same message each time: the dispatch id does not change between scheduled retries.
      const outcome = await dispatchWebhookDelivery(dispatch, ref);
      const stored = await storedDelivery(ref);
      expect(stored).toMatchObject({
        attempts: attempt,
        last_attempt_at: clock.now().toISOString(),
        response_status: 503,
        error: 'non_2xx',
        dispatch_id: ref.dispatchId,
      });
      if (attempt === 8) {
        expect(outcome).toEqual({ kind: 'done' });
        expect(stored).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
        break;
      }
      expect(outcome).toEqual({ kind: 'retry', afterSeconds: expect.any(Number) });
      const { afterSeconds } = outcome as Extract<DispatchOutcome, { kind: 'retry' }>;
      expect(stored.status).toBe('pending');
      expect(stored.next_attempt_at).toBe(new Date(clock.now().getTime() + afterSeconds * 1000).toISOString());
      delays.push(afterSeconds);
      clock.set(stored.next_attempt_at as string);
    }

    expect(delays).toHaveLength(7);
    delays.forEach((delay, index) => {
      const base = RETRY_SCHEDULE_SECONDS[index];
      expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
      expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
    });
    expect(RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1_800, 7_200, 18_000, 36_000, 43_200]);
    // The pinned extremes land on the bounds: the jitter spans the whole ±10 %.
    expect(delays[0]).toBe(5); // 4.5 rounds up
    expect(delays[1]).toBe(330);
    expect(delays[5]).toBe(32_400);

    // Every attempt: the same body (the event's envelope), the same webhook-id (the event id), signed at its own time.
    expect(send).toHaveBeenCalledTimes(8);
    send.mock.calls.forEach(([request], index) => {
      expect(request.url).toBe('http://127.0.0.1:9/hooks');
      expect(request.body).toBe(created.payload);
      expect(JSON.parse(request.body)).toEqual(event);
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(attemptTimes[index] / 1000)));
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(1);
      expect(verifiedAt(secret, request, attemptTimes[index])).toEqual(event);
    });

    // The message coming back once more (a duplicate) sends nothing.
    expect(await dispatchWebhookDelivery(dispatch, ref)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(8);
    // About 30 hours of failures are not 3 days: the endpoint stays enabled, failing since the first attempt.
    expect(await storedGetWebhook(db, orgId, webhookId)).toMatchObject({
      enabled: true,
      failing_since: new Date(attemptTimes[0]).toISOString(),
    });
  });
});

describe('what an attempt records, over the real wire', () => {
  let receivers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    receivers = [];
  });

  async function receiver(respond: Parameters<typeof startReceiver>[0]) {
    const started = await startReceiver(respond);
    receivers.push(started);
    return started;
  }

  async function attemptOnce(url: string) {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId, { url });
    const ref = await newDue(orgId, webhookId);
    const outcome = await dispatchWebhookDelivery(dispatchDeps(realSender()), ref);
    return { outcome, delivery: await storedDelivery(ref), webhook: await storedGetWebhook(db, orgId, webhookId) };
  }

  it.each([
    ['a 500', 500, 'non_2xx', 500],
    ['a redirect, not followed', 301, 'non_2xx', 301],
    ['no answer within the budget', 'hang' as const, 'timeout', null],
  ])('%s is a failed attempt, retried: %s', async (_case, answer, error, responseStatus) => {
    const { url, received } = await receiver(() => answer);
    const { outcome, delivery, webhook } = await attemptOnce(url);
    expect(received).toHaveLength(1);
    expect(outcome).toEqual({ kind: 'retry', afterSeconds: expect.any(Number) });
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      error,
      response_status: responseStatus,
      response_ms: expect.any(Number),
    });
    expect(webhook?.failing_since).toBe(clock.now().toISOString());
  });

  it('a closed port is connection_refused', async () => {
    const closed = await startReceiver();
    await closed.close();
    const { outcome, delivery } = await attemptOnce(closed.url);
    expect(outcome.kind).toBe('retry');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, error: 'connection_refused', response_status: null });
  });

  it('a success after failures settles the delivery as succeeded and clears the endpoint’s failures', async () => {
    const { url, received } = await receiver((n) => (n <= 2 ? 500 : 204));
    const orgId = newOrg();
    const { id: webhookId, secret } = await endpoint(orgId, { url });
    const ref = await newDue(orgId, webhookId);
    const dispatch = dispatchDeps(realSender());

    const first = await dispatchWebhookDelivery(dispatch, ref);
    expect((await storedGetWebhook(db, orgId, webhookId))?.failing_since).toBe(clock.now().toISOString());
    clock.advance((first as { afterSeconds: number }).afterSeconds * 1000);
    const second = await dispatchWebhookDelivery(dispatch, ref);
    clock.advance((second as { afterSeconds: number }).afterSeconds * 1000);
    expect(await dispatchWebhookDelivery(dispatch, ref)).toEqual({ kind: 'done' });

    expect(await storedDelivery(ref)).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      response_status: 204,
      error: null,
      next_attempt_at: null,
      last_attempt_at: clock.now().toISOString(),
    });
    expect(await storedGetWebhook(db, orgId, webhookId)).toMatchObject({ enabled: true, failing_since: null });
    // What arrived is what a Standard Webhooks receiver accepts.
    expect(received).toHaveLength(3);
    const last = received[2];
    expect(
      verifiedAt(secret, { url, body: last.body, headers: last.headers as Record<string, string> }, clock.now().getTime()),
    ).toMatchObject({ type: 'webhook.test' });
  });
});

describe('disabling an endpoint whose deliveries keep failing', () => {
  it('is disabled (reason failing) by a failure more than 3 days after its failures began, not one just under', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const send = fakeSender(() => SERVER_ERROR);
    const dispatch = dispatchDeps(send);
    const t0 = clock.now().getTime();

    await dispatchWebhookDelivery(dispatch, await newDue(orgId, webhookId));
    clock.set(t0 + 3 * DAY_MS - 1000);
    const lastBefore = await newDue(orgId, webhookId);
    await dispatchWebhookDelivery(dispatch, lastBefore);
    expect(await getWebhook({ db }, orgId, webhookId)).toMatchObject({ enabled: true, disabled_reason: null });

    clock.set(t0 + 3 * DAY_MS + 1000);
    await dispatchWebhookDelivery(dispatch, await newDue(orgId, webhookId));
    expect(await getWebhook({ db }, orgId, webhookId)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect(await storedGetWebhook(db, orgId, webhookId)).toMatchObject({ failing_since: new Date(t0).toISOString() });

    // The earlier delivery's scheduled retry then finds the endpoint disabled: settled, nothing sent.
    const sent = send.mock.calls.length;
    clock.advance(5 * 60_000);
    expect(await dispatchWebhookDelivery(dispatch, lastBefore)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(sent);
    expect(await storedDelivery(lastBefore)).toMatchObject({
      status: 'failed',
      error: 'endpoint_disabled',
      attempts: 1,
      next_attempt_at: null,
    });
  });

  it('a success in between starts the count again', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const t0 = clock.now().getTime();

    await dispatchWebhookDelivery(dispatchDeps(fakeSender(() => SERVER_ERROR)), await newDue(orgId, webhookId));
    clock.set(t0 + 2 * DAY_MS);
    await dispatchWebhookDelivery(dispatchDeps(fakeSender(() => OK)), await newDue(orgId, webhookId));
    clock.set(t0 + 3 * DAY_MS + 1000);
    await dispatchWebhookDelivery(dispatchDeps(fakeSender(() => SERVER_ERROR)), await newDue(orgId, webhookId));

    expect(await getWebhook({ db }, orgId, webhookId)).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await storedGetWebhook(db, orgId, webhookId))?.failing_since).toBe(new Date(t0 + 3 * DAY_MS + 1000).toISOString());
  });

  it('a pending delivery of an endpoint disabled by hand is settled as failed (endpoint_disabled) without a request', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    await updateWebhook(deps, orgId, webhookId, { enabled: false });
    const send = fakeSender();
    const metrics = metricCounter();

    expect(await dispatchWebhookDelivery(dispatchDeps(send, undefined, metrics.countMetric), ref)).toEqual({ kind: 'done' });
    expect(send).not.toHaveBeenCalled();
    expect(await storedDelivery(ref)).toMatchObject({
      status: 'failed',
      error: 'endpoint_disabled',
      attempts: 0,
      last_attempt_at: null,
      next_attempt_at: null,
    });
    expect(metrics.counts).toEqual({ WebhookDeliveriesFailed: 1 });
    expect(await getWebhook({ db }, orgId, webhookId)).toMatchObject({ enabled: false, disabled_reason: 'manual' });
  });

  it('a pending delivery of a deleted endpoint is left to expire, without a request', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    await deleteWebhook(deps, orgId, webhookId);
    const send = fakeSender();

    expect(await dispatchWebhookDelivery(dispatchDeps(send), ref)).toEqual({ kind: 'done' });
    expect(send).not.toHaveBeenCalled();
    expect(await storedDelivery(ref)).toMatchObject({ status: 'pending', attempts: 0, error: null });
  });
});

describe('one attempt at a time', () => {
  it('two copies of the same message at once send one request; the other comes back when the lease has run out', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const held = heldSender();
    const dispatch = dispatchDeps(held.send);

    const attempts = [dispatchWebhookDelivery(dispatch, ref), dispatchWebhookDelivery(dispatch, ref)];
    // The copy holding the delivery waits in send; the other can only have been refused.
    const refused = await Promise.race(attempts);
    expect(refused).toEqual({ kind: 'retry', afterSeconds: LEASE_SECONDS });
    held.release();
    const outcomes = await Promise.all(attempts);

    expect(held.send).toHaveBeenCalledTimes(1);
    expect(outcomes).toEqual(expect.arrayContaining([{ kind: 'done' }, { kind: 'retry', afterSeconds: LEASE_SECONDS }]));
    expect(await storedDelivery(ref)).toMatchObject({ status: 'succeeded', attempts: 1 });
    // When it comes back, the delivery is settled: nothing more is sent.
    clock.advance(LEASE_SECONDS * 1000);
    expect(await dispatchWebhookDelivery(dispatch, ref)).toEqual({ kind: 'done' });
    expect(held.send).toHaveBeenCalledTimes(1);
  });

  it('a message naming an older dispatch (a retry was asked for since) sends nothing; the new one does', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const stale = await newDue(orgId, webhookId);
    const send = fakeSender((n) => (n === 1 ? SERVER_ERROR : OK));
    const dispatch = dispatchDeps(send);
    await dispatchWebhookDelivery(dispatch, stale);

    await retryWebhookDelivery({ db, now: clock.now }, orgId, webhookId, stale.deliveryId);
    const fresh = await dueRef(orgId, webhookId, stale.deliveryId);
    expect(fresh.dispatchId).not.toBe(stale.dispatchId);

    // The scheduled retry's message comes back after the new dispatch: stale.
    clock.advance(10_000);
    expect(await dispatchWebhookDelivery(dispatch, stale)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(1);
    expect(await dispatchWebhookDelivery(dispatch, fresh)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(2);
    expect(await storedDelivery(fresh)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('a settled delivery’s message, delivered again, sends nothing', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const send = fakeSender();
    const dispatch = dispatchDeps(send);
    expect(await dispatchWebhookDelivery(dispatch, ref)).toEqual({ kind: 'done' });
    expect(await dispatchWebhookDelivery(dispatch, ref)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('retryDelivery', () => {
  const deliveryDeps = () => ({ db, now: clock.now });

  it('replays a succeeded delivery: pending again now under a new dispatch, the same event id and body sent again', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const send = fakeSender();
    const dispatch = dispatchDeps(send);
    await dispatchWebhookDelivery(dispatch, ref);
    clock.advance(3_600_000);

    const view = await retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId);
    expect(view).toMatchObject({ id: ref.deliveryId, status: 'pending', attempts: 1, next_attempt_at: clock.now().toISOString() });
    const replay = await dueRef(orgId, webhookId, ref.deliveryId);
    expect(replay.dispatchId).not.toBe(ref.dispatchId);

    expect(await dispatchWebhookDelivery(dispatch, replay)).toEqual({ kind: 'done' });
    const [first, second] = send.mock.calls.map(([request]) => request);
    expect(second.body).toBe(first.body);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp']) - Number(first.headers['webhook-timestamp'])).toBe(3600);
    expect(await storedDelivery(ref)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('tries a failed delivery once more; failing again, it is failed again (no retries remain)', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const send = fakeSender(() => SERVER_ERROR);
    const metrics = metricCounter();
    const dispatch = dispatchDeps(send, undefined, metrics.countMetric);
    for (
      let outcome = await dispatchWebhookDelivery(dispatch, ref);
      outcome.kind === 'retry';
      outcome = await dispatchWebhookDelivery(dispatch, ref)
    ) {
      clock.advance(outcome.afterSeconds * 1000);
    }
    expect(await storedDelivery(ref)).toMatchObject({ status: 'failed', attempts: 8 });
    // Seven failed attempts with a retry after each, then the delivery given up on.
    expect(metrics.counts).toEqual({ WebhookAttemptsFailed: 7, WebhookDeliveriesFailed: 1 });

    clock.advance(DAY_MS);
    expect(await retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId)).toMatchObject({
      status: 'pending',
      attempts: 8,
      next_attempt_at: clock.now().toISOString(),
    });
    const again = await dueRef(orgId, webhookId, ref.deliveryId);
    expect(await storedDelivery(ref)).toMatchObject({ status: 'pending', dispatch_id: again.dispatchId });
    expect(again.dispatchId).not.toBe(ref.dispatchId);

    expect(await dispatchWebhookDelivery(dispatch, again)).toEqual({ kind: 'done' });
    expect(send).toHaveBeenCalledTimes(9);
    expect(await storedDelivery(ref)).toMatchObject({ status: 'failed', attempts: 9, next_attempt_at: null });
    expect(metrics.counts).toEqual({ WebhookAttemptsFailed: 7, WebhookDeliveriesFailed: 2 });
  });

  it('is 409 DELIVERY_IN_PROGRESS while an attempt holds the delivery', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const held = heldSender();
    const attempt = dispatchWebhookDelivery(dispatchDeps(held.send), ref);
    await Promise.race([held.started, attempt.then(() => Promise.reject(new Error('the attempt ended without sending')))]);

    const error = await rejection(retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ statusCode: 409, code: 'DELIVERY_IN_PROGRESS' });
    held.release();
    expect(await attempt).toEqual({ kind: 'done' });
    // Once the attempt is over, a retry is accepted.
    expect(await retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId)).toMatchObject({ status: 'pending' });
  });

  it('is 409 WEBHOOK_DISABLED for a disabled endpoint, and accepted once it is enabled again', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    await updateWebhook(deps, orgId, webhookId, { enabled: false });
    await dispatchWebhookDelivery(dispatchDeps(fakeSender()), ref);

    const error = await rejection(retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ statusCode: 409, code: 'WEBHOOK_DISABLED' });
    expect(await storedDelivery(ref)).toMatchObject({ status: 'failed', dispatch_id: ref.dispatchId });

    await updateWebhook(deps, orgId, webhookId, { enabled: true });
    expect(await retryWebhookDelivery(deliveryDeps(), orgId, webhookId, ref.deliveryId)).toMatchObject({ status: 'pending' });
  });

  it('is 404 for an unknown endpoint, an unknown or malformed delivery id, and another endpoint’s delivery', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const { id: otherId } = await endpoint(orgId);
    const ref = await newDue(orgId, webhookId);
    const unknownDelivery = `dlv_${'0'.repeat(32)}`;

    const cases: [string, string, string][] = [
      ['wh_unknown', ref.deliveryId, 'WEBHOOK_NOT_FOUND'],
      [webhookId, unknownDelivery, 'WEBHOOK_DELIVERY_NOT_FOUND'],
      [webhookId, 'not-a-delivery-id', 'WEBHOOK_DELIVERY_NOT_FOUND'],
      [otherId, ref.deliveryId, 'WEBHOOK_DELIVERY_NOT_FOUND'],
    ];
    for (const [endpointId, deliveryId, code] of cases) {
      const error = await rejection(retryWebhookDelivery(deliveryDeps(), orgId, endpointId, deliveryId));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ statusCode: 404, code });
    }
    // Another organization's endpoint is not found either.
    expect(await rejection(retryWebhookDelivery(deliveryDeps(), newOrg(), webhookId, ref.deliveryId))).toMatchObject({
      code: 'WEBHOOK_NOT_FOUND',
    });
  });
});

describe('fanOutEvent', () => {
  const fanOut = (event: DomainEvent) => fanOutWebhookDeliveries({ db, now: clock.now }, event);

  it('makes one delivery per enabled endpoint of the event’s organization subscribed to its type or to *', async () => {
    const orgId = newOrg();
    const otherOrgId = newOrg();
    const byType = await endpoint(orgId, { events: ['recording.created', 'template.created'] });
    const all = await endpoint(orgId, { events: ['*'] });
    const otherType = await endpoint(orgId, { events: ['template.updated'] });
    const disabled = await endpoint(orgId, { events: ['*'], enabled: false });
    const otherOrg = await endpoint(otherOrgId, { events: ['*'] });
    const event = templateCreated(orgId);

    expect(await fanOut(event)).toBe(2);
    for (const { id } of [byType, all]) {
      const deliveries = await deliveriesOf(orgId, id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event_id: event.id, event_type: 'template.created', status: 'pending', attempts: 0 });
      expect(JSON.parse(deliveries[0].payload)).toEqual(event);
    }
    expect(await deliveriesOf(orgId, otherType.id)).toEqual([]);
    expect(await deliveriesOf(orgId, disabled.id)).toEqual([]);
    expect(await deliveriesOf(otherOrgId, otherOrg.id)).toEqual([]);
    expect(await deliveriesOf(orgId, otherOrg.id)).toEqual([]);
  });

  it('handling the same event again (the queue redelivers it) makes no second delivery', async () => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId);
    const event = templateCreated(orgId);
    expect(await fanOut(event)).toBe(1);
    clock.advance(60_000);
    expect(await fanOut(event)).toBe(0);
    expect(await deliveriesOf(orgId, webhookId)).toHaveLength(1);
  });

  it.each([
    ['webhook.delivery_due', { type: 'webhook_delivery', id: `dlv_${'1'.repeat(32)}` }],
    ['recording.retention_due', { type: 'recording', id: 'rec_1' }],
  ] as const)('makes none for the internal event %s, even for an endpoint subscribed to *', async (type, resource) => {
    const orgId = newOrg();
    const { id: webhookId } = await endpoint(orgId, { events: ['*'] });
    expect(await fanOut(domainEvent({ type, org_id: orgId, resource: { ...resource }, data: {} }))).toBe(0);
    expect(await deliveriesOf(orgId, webhookId)).toEqual([]);
  });

  it('at the limit of 10 endpoints, one event makes 10 deliveries (an 11th endpoint is refused)', async () => {
    const orgId = newOrg();
    const endpoints = [];
    for (let index = 0; index < 10; index += 1) endpoints.push(await endpoint(orgId));
    expect(await rejection(endpoint(orgId))).toMatchObject({ statusCode: 409, code: 'WEBHOOK_LIMIT_REACHED' });

    expect(await fanOut(templateCreated(orgId))).toBe(10);
    for (const { id } of endpoints) expect(await deliveriesOf(orgId, id)).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('the previous secret signs beside the new one for 24 hours, then the new one alone', async () => {
    const orgId = newOrg();
    const { id: webhookId, secret: oldSecret } = await endpoint(orgId);
    clock.advance(DAY_MS);
    const rotatedAt = clock.now().getTime();
    const { secret: newSecret, previous_secret_expires_at: expiresAt } = await rotateWebhookSecret(deps, orgId, webhookId);
    expect(expiresAt).toBe(new Date(rotatedAt + DAY_MS).toISOString());
    const webhook = await storedGetWebhook(db, orgId, webhookId);
    if (!webhook) throw new Error('endpoint gone');

    const secretsOf = cachedSecrets(cipher);
    expect(await secretsOf(webhook, new Date(rotatedAt))).toEqual([newSecret, oldSecret]);
    expect(await secretsOf(webhook, new Date(rotatedAt + DAY_MS - 1))).toEqual([newSecret, oldSecret]);
    expect(await secretsOf(webhook, new Date(rotatedAt + DAY_MS))).toEqual([newSecret]);
    expect(await secretsOf(webhook, new Date(rotatedAt + DAY_MS + 1))).toEqual([newSecret]);

    const send = fakeSender();
    const dispatch = dispatchDeps(send);
    clock.set(rotatedAt + DAY_MS - 1000);
    await dispatchWebhookDelivery(dispatch, await newDue(orgId, webhookId));
    const during = send.mock.calls[0][0];
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifiedAt(newSecret, during, clock.now().getTime())).toMatchObject({ type: 'webhook.test' });
    expect(verifiedAt(oldSecret, during, clock.now().getTime())).toMatchObject({ type: 'webhook.test' });

    clock.set(rotatedAt + DAY_MS + 1000);
    await dispatchWebhookDelivery(dispatch, await newDue(orgId, webhookId));
    const after = send.mock.calls[1][0];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifiedAt(newSecret, after, clock.now().getTime())).toMatchObject({ type: 'webhook.test' });
    expect(() => verifiedAt(oldSecret, after, clock.now().getTime())).toThrow('No matching signature found');
  });
});
