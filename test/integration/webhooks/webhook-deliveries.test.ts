import { apiKeyIdFromHash, hashApiKey } from '../../../shared/auth/api-key-secrets';
import type { WebhookDelivery as DeliveryBody } from '../../../shared/schemas/webhooks';
import { WEBHOOK_TIMEOUT_MS } from '../../../shared/webhooks/http-sender';
import { expectFailure, once, TIMESTAMP } from '../../support/api';
import { eventually } from '../../support/eventually';
import { publishedEvents } from '../../support/events';
import { closedPortUrl, latch, type Receiver, type Responder } from '../../support/webhook-receiver';
import {
  changeTemplate,
  cleanUpWebhooks,
  createTemplate,
  DELIVERY_ID,
  deliveriesWhen,
  deliveryWhen,
  endpoint,
  EVENT_ID,
  hooksApi,
  hooksOrg,
  isolationWorld,
  payloadOf,
  receiver,
  signaturesOf,
  verified,
  webhookIdOf,
  type CreatedWebhookBody,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * Webhook deliveries through the whole pipeline (the table's stream, the processor, the fan-out,
 * the dispatcher) to receivers on loopback that verify every signature with `standardwebhooks`:
 * the subscribed events arrive, signed, exactly once when answered 2xx, failed attempts are
 * retried (same webhook-id, same body), and one organization's events never reach another's
 * endpoint. The shared deployment scales the dispatcher's retry delays by a thousandth (5 s -> 5
 * ms, 5 min -> 300 ms, 30 min -> 1.8 s...), so retries are observed without waiting; one
 * attempt's 10 s budget is not scaled. To look at a delivery between two attempts, a receiver
 * holds its answer to the next attempt on a latch until the test has looked (or, after a 10 s
 * timeout, reads the delivery itself when the next attempt comes). Deliveries come in no
 * promised order, so none is assumed. The organizations, receivers and helpers of the webhooks
 * suites: test/support/webhooks.ts (every endpoint a suite made is deleted after it, so that no
 * retry outlives it).
 */

afterAll(cleanUpWebhooks);

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

const isolation = once(isolationWorld);

describe('the deliveries (the fan-out and dispatcher consumers)', () => {
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
      const expected = [
        `template.created ${first}`,
        `template.updated ${first}`,
        `template.deleted ${first}`,
        `template.created ${second}`,
        `webhook.created ${disabled.hook.id}`,
      ];
      await eventually(
        async () => everything.at.received.map(payloadOf).map((event) => `${event.type} ${event.resource.id}`),
        (seen) => expected.every((item) => seen.includes(item)),
      );
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
      expect(verified(subscribed.hook.secret, second)).toMatchObject({
        type: 'template.created',
        resource: { type: 'template', id: templates[1] },
        correlation_id: `whd-second-${o.id}`,
      });
      // The event is the one the pipeline published.
      expect(publishedEvents(o.org).find((event) => event.id === payload.id)).toEqual(payload);
    });

    it("another endpoint's secret does not verify it, nor does a changed body", () => {
      const [first] = subscribed.at.received;
      expect(() => verified(everything.hook.secret, first)).toThrow();
      expect(() =>
        verified(subscribed.hook.secret, { ...first, body: first.body.replace('template.created', 'template.deleted') }),
      ).toThrow();
    });

    it('the delivery list records each delivery: succeeded at the first attempt, the event named', async () => {
      const deliveries = await deliveriesWhen(
        hooks,
        subscribed.hook.id,
        (list) => list.length === 2 && list.every((d) => d.status === 'succeeded'),
      );
      // Newest first: the second template's event, then the first's.
      expect(deliveries).toEqual(
        [templates[1], templates[0]]
          .map((templateId) => payloadOf(arrivalOf(templateId)))
          .map((event) => ({
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
      expect((await hooks.deliveries(subscribed.hook.id)).body.deliveries.map((d) => d.event_type)).toEqual([
        'template.created',
        'template.created',
      ]);
    });

    it('`*` receives every type, each verified', async () => {
      const events = everything.at.received.map((d) => verified(everything.hook.secret, d));
      const ofFirst = events.filter((event) => event.resource.id === templates[0]).map((event) => event.type);
      expect(ofFirst.sort()).toEqual(['template.created', 'template.deleted', 'template.updated']);
      expect(events.filter((event) => event.resource.id === templates[1]).map((event) => event.type)).toEqual(['template.created']);
      // Its own creation, and the endpoints created after it, are events too.
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'webhook.created', resource: { type: 'webhook', id: disabled.hook.id } }),
      );
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
      await eventually(
        async () => everything.at.received.map(payloadOf),
        (events) => events.some((event) => event.resource.id === whileDisabled),
      );
      expect((await hooks.update(subscribed.hook.id, { enabled: true })).status).toBe(200);
      const afterwards = await createTemplate(o);
      await subscribed.at.waitFor(3);
      const received = subscribed.at.received.map((d) => verified(subscribed.hook.secret, d).resource.id);
      expect(received).toHaveLength(3);
      expect(received).not.toContain(whileDisabled);
      expect(new Set(received)).toEqual(new Set([...templates, afterwards]));
    });
  });

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
      await eventually(
        async () => at.received.map(webhookIdOf),
        (ids) => ids.includes(sentinel.body.event_id),
      );
      const events = at.received.map((d) => verified(hook.secret, d));
      expect(events).toHaveLength(N + 1);
      expect(new Set(at.received.map(webhookIdOf)).size).toBe(N + 1);
      expect(
        events
          .filter((event) => event.type === 'template.created')
          .map((event) => event.resource.id)
          .sort(),
      ).toEqual([...templateIds].sort());
      expect(new Set(deliveries.map((d) => d.event_id))).toEqual(
        new Set(events.filter((event) => event.type === 'template.created').map((event) => event.id)),
      );
    });
  });

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
      expect(sent.body).toMatchObject({
        id: expect.stringMatching(DELIVERY_ID),
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        error: null,
      });
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
      expect(pending).toMatchObject({
        status: 'pending',
        attempts: 1,
        response_status: 500,
        error: 'non_2xx',
        last_attempt_at: expect.stringMatching(TIMESTAMP),
        next_attempt_at: expect.stringMatching(TIMESTAMP),
      });
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
      expect(await deliveryWhen(hooks, hook.id, delivery.id, (d) => d.status !== 'pending')).toMatchObject({
        status: 'succeeded',
        attempts: 2,
      });
      expectSameDeliveryTwice(at, hook.secret, delivery.event_id);
      expect(target.received).toEqual([]);
    });

    it('a receiver that never answers: error timeout after 10 s, then the retry', async () => {
      const { hooks: own, at, hook, delivery, seenBySecondAttempt } = await timeoutScenario();
      const during = await seenBySecondAttempt;
      expect(during).toMatchObject({
        status: 'pending',
        attempts: 1,
        response_status: null,
        error: 'timeout',
        next_attempt_at: expect.stringMatching(TIMESTAMP),
      });
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
      expect(refused).toMatchObject({
        status: 'pending',
        response_status: null,
        response_ms: expect.any(Number),
        error: 'connection_refused',
        next_attempt_at: expect.stringMatching(TIMESTAMP),
      });
      // Deleted, the endpoint receives nothing more: its pending delivery goes with it.
      expect((await hooks.remove(hook.id)).status).toBe(200);
    });
  });

  describe('isolation between organizations', () => {
    let a: HooksOrg;
    let b: HooksOrg;
    let atA: Receiver;
    let atB: Receiver;
    let hookA: CreatedWebhookBody;
    let hookB: CreatedWebhookBody;
    beforeAll(async () => {
      ({ a, b, atA, atB, hookA, hookB } = await isolation());
    });

    it("one organization's events never reach another's endpoint", async () => {
      const templateA = await createTemplate(a);
      const testA = (await hooksApi(a).test(hookA.id)).body;
      await eventually(
        async () => atA.received.map(payloadOf),
        (events) => events.some((e) => e.resource.id === templateA) && events.some((e) => e.id === testA.event_id),
      );
      // B's own test event, sent after A's events, tells when B's receiver has had its share.
      const testB = (await hooksApi(b).test(hookB.id)).body;
      await eventually(
        async () => atB.received.map(webhookIdOf),
        (ids) => ids.includes(testB.event_id),
      );
      const eventsA = atA.received.map((d) => verified(hookA.secret, d));
      const eventsB = atB.received.map((d) => verified(hookB.secret, d));
      expect(eventsA.every((event) => event.org_id === a.org)).toBe(true);
      expect(eventsB.every((event) => event.org_id === b.org)).toBe(true);
      const idsA = new Set(eventsA.map((event) => event.id));
      expect(eventsB.filter((event) => idsA.has(event.id))).toEqual([]);
      expect(eventsB.map((event) => event.resource.id)).not.toContain(templateA);
    });
  });
});
