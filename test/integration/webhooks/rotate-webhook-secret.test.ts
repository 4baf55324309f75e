import { expectFailure, once, TIMESTAMP } from '../../support/api';
import { eventually } from '../../support/eventually';
import {
  cleanUpWebhooks,
  createTemplate,
  DAY_MS,
  endpoint,
  expectNoSecret,
  expectUntouchedByA,
  hooksApi,
  hooksOrg,
  isolationWorld,
  payloadOf,
  receiver,
  signaturesOf,
  verified,
  webhookIdOf,
} from '../../support/webhooks';

/**
 * Rotate webhook secret end to end, through the local API (authorizer, handlers, DynamoDB Local)
 * and the delivery pipeline to a receiver on loopback: the old secret signs beside the new one
 * for 24 hours, and another organization's endpoint keeps its one secret. The organizations,
 * receivers and helpers of the webhooks suites: test/support/webhooks.ts (every endpoint a suite
 * made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('POST /api/v1/organization/{orgId}/webhooks/{webhookId}/rotate-secret', () => {
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

  describe('isolation between organizations', () => {
    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND; that endpoint still signs with its one secret", async () => {
      const world = await isolation();
      const { a, b, atA, atB, hookB } = world;
      expectFailure(await hooksApi(a).rotate(hookB.id), 404, 'WEBHOOK_NOT_FOUND');
      await expectUntouchedByA(world);
      const testB = (await hooksApi(b).test(hookB.id)).body;
      await eventually(
        async () => atB.received.map(webhookIdOf),
        (ids) => ids.includes(testB.event_id),
      );
      const last = atB.received.find((d) => webhookIdOf(d) === testB.event_id)!;
      expect(signaturesOf(last)).toHaveLength(1);
      expect(verified(hookB.secret, last).org_id).toBe(b.org);
      expect(atA.received.map(webhookIdOf)).not.toContain(testB.event_id);
    });
  });
});
