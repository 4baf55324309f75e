import { once } from '../../support/api';
import {
  cleanUpWebhooks,
  endpoint,
  expectNoSecret,
  hooksApi,
  hooksOrg,
  isolationWorld,
  receiver,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * List webhooks end to end, through the local API (authorizer, handlers, DynamoDB Local): every
 * endpoint of the organization, oldest first, never a secret, and only its own organization's.
 * The organizations, receivers and helpers of the webhooks suites: test/support/webhooks.ts
 * (every endpoint a suite made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('GET /api/v1/organization/{orgId}/webhooks', () => {
  describe('results', () => {
    let o: HooksOrg;
    let hooks: HooksApi;
    let url: string;
    beforeAll(async () => {
      o = await hooksOrg('whlisted');
      hooks = hooksApi(o);
      url = (await receiver()).url;
      // Three endpoints, one after another: the list holds them in that order.
      for (const description of ['First', 'Second', 'Third']) await endpoint(hooks, { url, events: ['template.created'], description });
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
  });

  describe('isolation between organizations', () => {
    it("lists only its own organization's endpoints", async () => {
      const { a, hookA } = await isolation();
      expect((await hooksApi(a).list()).body.webhooks.map((webhook) => webhook.id)).toEqual([hookA.id]);
    });
  });
});
