import type { Webhook as WebhookBody } from '../../../shared/schemas/webhooks';
import { expectFailure, once } from '../../support/api';
import {
  badInputOrg,
  cleanUpWebhooks,
  deliveryWhen,
  endpoint,
  expectUntouchedByA,
  hooksApi,
  hooksOrg,
  isolationWorld,
  receiver,
  verified,
  webhookIdOf,
  type HooksApi,
} from '../../support/webhooks';

/**
 * Retry webhook delivery end to end, through the local API (authorizer, handlers, DynamoDB
 * Local) and the delivery pipeline to a receiver on loopback: a replay is the same event again,
 * unknown deliveries are 404, and another organization's endpoint and deliveries are out of
 * reach. The organizations, receivers and helpers of the webhooks suites:
 * test/support/webhooks.ts (every endpoint a suite made is deleted after it, so that no retry
 * outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('POST /api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry', () => {
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
      expect(retried.body).toMatchObject({
        id: sent.id,
        event_id: sent.event_id,
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 1,
      });
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

  describe('bad input: never a 500, never a partial write', () => {
    let bad: Awaited<ReturnType<typeof badInputOrg>>;
    let hooks: HooksApi;
    let baseline: WebhookBody;
    let expectUnchanged: () => Promise<void>;
    beforeAll(async () => {
      bad = await badInputOrg();
      ({ hooks, baseline, expectUnchanged } = bad);
    });

    it('an id that is not a delivery id: 404 WEBHOOK_DELIVERY_NOT_FOUND', async () => {
      expectFailure(await hooks.retry(baseline.id, 'nope'), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
      await expectUnchanged();
    });
  });

  describe('isolation between organizations', () => {
    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND; its delivery under one's own endpoint: 404 WEBHOOK_DELIVERY_NOT_FOUND", async () => {
      const world = await isolation();
      const own = hooksApi(world.a);
      expectFailure(await own.retry(world.hookB.id, world.deliveryB.id), 404, 'WEBHOOK_NOT_FOUND');
      // B's delivery id under A's own endpoint is no delivery of it.
      expectFailure(await own.retry(world.hookA.id, world.deliveryB.id), 404, 'WEBHOOK_DELIVERY_NOT_FOUND');
      await expectUntouchedByA(world);
    });
  });
});
