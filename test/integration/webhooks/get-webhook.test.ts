import { expectFailure, once } from '../../support/api';
import { badInputOrg, cleanUpWebhooks, hooksApi, isolationWorld } from '../../support/webhooks';

/**
 * Get webhook end to end, through the local API (authorizer, handlers, DynamoDB Local): ids that
 * are not webhook ids, and another organization's endpoint (what it answers for an endpoint:
 * create-webhook.test.ts and update-webhook.test.ts). The organizations, receivers and helpers
 * of the webhooks suites: test/support/webhooks.ts (every endpoint a suite made is deleted after
 * it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('GET /api/v1/organization/{orgId}/webhooks/{webhookId}', () => {
  describe('unknown ids, and other organizations’ endpoints', () => {
    it('an id that is not a webhook id: 404, not a 500', async () => {
      const { hooks } = await badInputOrg();
      expect((await hooks.get('nope')).status).toBe(404);
    });

    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND", async () => {
      const world = await isolation();
      expectFailure(await hooksApi(world.a).get(world.hookB.id), 404, 'WEBHOOK_NOT_FOUND');
    });
  });
});
