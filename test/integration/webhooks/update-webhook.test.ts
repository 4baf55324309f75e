import type { Webhook as WebhookBody } from '../../../shared/schemas/webhooks';
import { expectFailure, once } from '../../support/api';
import {
  badInputOrg,
  cleanUpWebhooks,
  endpoint,
  expectNoSecret,
  expectRefused,
  expectUntouchedByA,
  hooksApi,
  hooksOrg,
  isolationWorld,
  NOT_ALLOWED_URLS,
  receiver,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * Update webhook (PATCH) end to end, through the local API (authorizer, handlers, DynamoDB
 * Local): each field it is given and only those, disabling and enabling by hand, bad input (400
 * naming the field, the endpoint unchanged), and another organization's endpoint. The
 * organizations, receivers and helpers of the webhooks suites: test/support/webhooks.ts (every
 * endpoint a suite made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('PATCH /api/v1/organization/{orgId}/webhooks/{webhookId}', () => {
  describe('results', () => {
    let o: HooksOrg;
    let hooks: HooksApi;
    let url: string;
    beforeAll(async () => {
      o = await hooksOrg('whupdate');
      hooks = hooksApi(o);
      url = (await receiver()).url;
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
        [
          { url, description: 'Both', events: ['template.created'] },
          { url, description: 'Both', events: ['template.created'] },
        ],
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
      expect((await hooks.update(created.id, { description: 'Paused' })).body).toMatchObject({
        enabled: false,
        disabled_reason: 'manual',
        description: 'Paused',
      });
      const enabled = await hooks.update(created.id, { enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
      expect((await hooks.get(created.id)).body).toMatchObject({ enabled: true, disabled_reason: null });
      // A disabled-at-creation endpoint is enabled the same way.
      const off = await endpoint(hooks, { url, events: ['template.created'], enabled: false });
      expect((await hooks.update(off.id, { enabled: true })).body).toMatchObject({ enabled: true, disabled_reason: null });
    });
  });

  describe('bad input: 400 naming the field, never a 500, never a partial write', () => {
    let bad: Awaited<ReturnType<typeof badInputOrg>>;
    let hooks: HooksApi;
    let baseline: WebhookBody;
    let expectUnchanged: () => Promise<void>;
    beforeAll(async () => {
      bad = await badInputOrg();
      ({ hooks, baseline, expectUnchanged } = bad);
    });

    it.each(NOT_ALLOWED_URLS.slice(0, 8))('PATCH with url %s: 400 WEBHOOK_URL_NOT_ALLOWED, the endpoint unchanged', async (bad) => {
      expectRefused(await hooks.update(baseline.id, { url: bad }), 'WEBHOOK_URL_NOT_ALLOWED', 'url');
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

    it('an id that is not a webhook id: 404, not a 500', async () => {
      expect((await hooks.update('nope', { description: 'x' })).status).toBe(404);
      await expectUnchanged();
    });
  });

  describe('isolation between organizations', () => {
    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND, its endpoint untouched", async () => {
      const world = await isolation();
      expectFailure(await hooksApi(world.a).update(world.hookB.id, { url: world.atA.url }), 404, 'WEBHOOK_NOT_FOUND');
      await expectUntouchedByA(world);
    });
  });
});
