import { expectFailure, once } from '../../support/api';
import { badInputOrg, cleanUpWebhooks, expectUntouchedByA, hooksApi, isolationWorld } from '../../support/webhooks';

/**
 * Test webhook end to end, through the local API (authorizer, handlers, DynamoDB Local): ids
 * that are not webhook ids, and another organization's endpoint (the test event's delivery:
 * webhook-deliveries.test.ts). The organizations, receivers and helpers of the webhooks suites:
 * test/support/webhooks.ts (every endpoint a suite made is deleted after it, so that no retry
 * outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('POST /api/v1/organization/{orgId}/webhooks/{webhookId}/test', () => {
  describe('unknown ids, and other organizations’ endpoints', () => {
    it('an id that is not a webhook id: 404, not a 500, nothing written', async () => {
      const { hooks, expectUnchanged } = await badInputOrg();
      expect((await hooks.test('nope')).status).toBe(404);
      await expectUnchanged();
    });

    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND, its endpoint untouched", async () => {
      const world = await isolation();
      expectFailure(await hooksApi(world.a).test(world.hookB.id), 404, 'WEBHOOK_NOT_FOUND');
      await expectUntouchedByA(world);
    });
  });
});
