import { call, expectFailure, TIMESTAMP } from '../../support/api';
import {
  badInputOrg,
  cleanUpWebhooks,
  endpoint,
  expectNoSecret,
  expectRefused,
  hooksApi,
  hooksOrg,
  NOT_ALLOWED_URLS,
  receiver,
  runtime,
  WEBHOOK_ID,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * Create webhook end to end, through the local API (authorizer, handlers, DynamoDB Local): the
 * endpoint it answers with its signing secret (shown only there), bad input (400 naming the
 * field, never a 500, never a partial write), and at most 10 endpoints per organization. The
 * organizations, receivers and helpers of the webhooks suites: test/support/webhooks.ts (every
 * endpoint a suite made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

describe('POST /api/v1/organization/{orgId}/webhooks', () => {
  describe('results', () => {
    let o: HooksOrg;
    let hooks: HooksApi;
    let url: string;
    beforeAll(async () => {
      o = await hooksOrg('whcreate');
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
      const res = await hooks.create({
        url,
        events: ['recording.uploaded', 'template.deleted'],
        description: 'Transcripts\tand templates\n',
        enabled: false,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        description: 'Transcripts\tand templates\n',
        events: ['recording.uploaded', 'template.deleted'],
        enabled: false,
        disabled_reason: 'manual',
      });
    });
  });

  describe('bad input: 400 naming the field, never a 500, never a partial write', () => {
    let bad: Awaited<ReturnType<typeof badInputOrg>>;
    let o: HooksOrg;
    let hooks: HooksApi;
    let expectUnchanged: () => Promise<void>;
    beforeAll(async () => {
      bad = await badInputOrg();
      ({ o, hooks, expectUnchanged } = bad);
    });

    it.each(NOT_ALLOWED_URLS)('create with url %s: 400 WEBHOOK_URL_NOT_ALLOWED', async (bad) => {
      expectRefused(await hooks.create({ url: bad, events: ['*'] }), 'WEBHOOK_URL_NOT_ALLOWED', 'url');
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
      [
        'description with a control character',
        { url: 'https://example.com/hooks', events: ['*'], description: 'ring \u0007 bell' },
        'description',
      ],
      ['description not a string', { url: 'https://example.com/hooks', events: ['*'], description: ['a'] }, 'description'],
      ['enabled not a boolean', { url: 'https://example.com/hooks', events: ['*'], enabled: 'yes' }, 'enabled'],
      ['enabled null', { url: 'https://example.com/hooks', events: ['*'], enabled: null }, 'enabled'],
      ['an unknown field', { url: 'https://example.com/hooks', events: ['*'], retries: 3 }, 'retries'],
      [
        'a secret of the client',
        { url: 'https://example.com/hooks', events: ['*'], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
        'secret',
      ],
      ['an id of the client', { url: 'https://example.com/hooks', events: ['*'], id: 'wh_mine' }, 'id'],
      ['a disabled_reason', { url: 'https://example.com/hooks', events: ['*'], disabled_reason: 'manual' }, 'disabled_reason'],
    ];
    it.each(INVALID_CREATES)('create with %s: 400 VALIDATION_ERROR', async (_, body, field) => {
      expectRefused(await hooks.create(body), 'VALIDATION_ERROR', field);
      await expectUnchanged();
    });

    it('create with a body that is not a JSON object: 400', async () => {
      expectRefused(
        await call(runtime.apiUrl, 'POST', `/api/v1/organization/${o.org}/webhooks`, { token: o.keys.hooks, rawBody: '{"url":' }),
        'INVALID_JSON',
      );
      expect((await hooks.create(['https://example.com/hooks'])).status).toBe(400);
      expect((await hooks.create(undefined)).status).toBe(400);
      await expectUnchanged();
    });
  });

  describe('at most 10 endpoints per organization', () => {
    // A type these organizations never emit: their endpoints receive nothing, so the shared dispatcher is not kept busy.
    const QUIET = ['recording.upload_failed'];

    it('the 11th is refused with 409 WEBHOOK_LIMIT_REACHED; after deleting one, creating works again', async () => {
      const o = await hooksOrg('whlimit');
      const hooks = hooksApi(o);
      const { url } = await receiver();
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) => endpoint(hooks, { url, events: QUIET, description: `#${i}` })),
      );
      expectFailure(await hooks.create({ url, events: QUIET }), 409, 'WEBHOOK_LIMIT_REACHED');
      const ids = (await hooks.list()).body.webhooks.map((webhook) => webhook.id);
      expect([...ids].sort()).toEqual(created.map((webhook) => webhook.id).sort());
      // A disabled endpoint counts too.
      expect((await hooks.update(ids[0], { enabled: false })).status).toBe(200);
      expectFailure(await hooks.create({ url, events: QUIET, enabled: false }), 409, 'WEBHOOK_LIMIT_REACHED');

      expect((await hooks.remove(ids[3])).status).toBe(200);
      const replacement = await endpoint(hooks, { url, events: QUIET });
      expectFailure(await hooks.create({ url, events: QUIET }), 409, 'WEBHOOK_LIMIT_REACHED');
      expect((await hooks.list()).body.webhooks.map((webhook) => webhook.id)).toEqual([
        ...ids.filter((id) => id !== ids[3]),
        replacement.id,
      ]);
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
});
