import { expectFailure, once } from '../../support/api';
import {
  cleanUpWebhooks,
  endpoint,
  expectUntouchedByA,
  hooksApi,
  hooksOrg,
  isolationWorld,
  receiver,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * Delete webhook end to end, through the local API (authorizer, handlers, DynamoDB Local): then
 * every route answers 404 for the endpoint, and another organization's endpoint is out of reach.
 * The organizations, receivers and helpers of the webhooks suites: test/support/webhooks.ts
 * (every endpoint a suite made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('DELETE /api/v1/organization/{orgId}/webhooks/{webhookId}', () => {
  describe('results', () => {
    let o: HooksOrg;
    let hooks: HooksApi;
    let url: string;
    beforeAll(async () => {
      o = await hooksOrg('whdelete');
      hooks = hooksApi(o);
      url = (await receiver()).url;
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

  describe('isolation between organizations', () => {
    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND, its endpoint untouched", async () => {
      const world = await isolation();
      expectFailure(await hooksApi(world.a).remove(world.hookB.id), 404, 'WEBHOOK_NOT_FOUND');
      await expectUntouchedByA(world);
    });
  });
});
