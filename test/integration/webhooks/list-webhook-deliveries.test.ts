import type { Webhook as WebhookBody, WebhookDelivery as DeliveryBody } from '../../../shared/schemas/webhooks';
import { call, expectFailure, once, TIMESTAMP, type ApiResponse } from '../../support/api';
import { eventually } from '../../support/eventually';
import {
  badInputOrg,
  cleanUpWebhooks,
  deliveryWhen,
  endpoint,
  expectRefused,
  hooksApi,
  hooksOrg,
  isolationWorld,
  receiver,
  runtime,
  webhookIdOf,
  type CreatedWebhookBody,
  type DeliveryList,
  type HooksApi,
  type HooksOrg,
} from '../../support/webhooks';

/**
 * List webhook deliveries end to end, through the local API (authorizer, handlers, DynamoDB
 * Local) and the delivery pipeline to a receiver on loopback: newest first, by status, in pages
 * with cursors bound to their list, bad queries, and another organization's endpoint. The
 * organizations, receivers and helpers of the webhooks suites: test/support/webhooks.ts (every
 * endpoint a suite made is deleted after it, so that no retry outlives it).
 */

afterAll(cleanUpWebhooks);

const isolation = once(isolationWorld);

describe('GET /api/v1/organization/{orgId}/webhooks/{webhookId}/deliveries', () => {
  describe('the deliveries list: newest first, by status, in pages', () => {
    let o: HooksOrg;
    let hooks: HooksApi;
    let hook: CreatedWebhookBody;
    /** Oldest first: succeeded, pending (its receiver keeps failing it), succeeded. */
    let sent: DeliveryBody[];
    beforeAll(async () => {
      o = await hooksOrg('whlist');
      hooks = hooksApi(o);
      // The receiver fails, for good, the first event it is sent once told to: the second.
      let failNext = false;
      let failing: string | undefined;
      const at = await receiver((_, delivery) => {
        if (failNext && !failing) failing = webhookIdOf(delivery);
        return webhookIdOf(delivery) === failing ? 503 : 200;
      });
      hook = await endpoint(hooks, { url: at.url, events: ['template.deleted'] });
      sent = [];
      for (let i = 0; i < 3; i++) {
        failNext = i === 1;
        const res = await hooks.test(hook.id);
        expect(res.status).toBe(202);
        sent.push(res.body);
        // One at a time: each is attempted before the next is sent.
        await deliveryWhen(hooks, hook.id, res.body.id, (d) => d.attempts >= 1);
      }
      expect(failing).toBe(sent[1].event_id);
    });

    const ids = (res: ApiResponse<DeliveryList>) => res.body.deliveries.map((d) => d.id);

    it('newest first, each in its status', async () => {
      const res = await hooks.deliveries(hook.id);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([sent[2].id, sent[1].id, sent[0].id]);
      expect(res.body.deliveries.map((d) => d.status)).toEqual(['succeeded', 'pending', 'succeeded']);
      expect(res.body.deliveries[1]).toMatchObject({
        response_status: 503,
        error: 'non_2xx',
        next_attempt_at: expect.stringMatching(TIMESTAMP),
      });
      expect(res.body.pagination).toEqual({ limit: 20, next_cursor: null });
    });

    it('status filters the list', async () => {
      expect(ids(await hooks.deliveries(hook.id, '?status=succeeded'))).toEqual([sent[2].id, sent[0].id]);
      expect(ids(await hooks.deliveries(hook.id, '?status=pending'))).toEqual([sent[1].id]);
      expect(ids(await hooks.deliveries(hook.id, '?status=failed'))).toEqual([]);
    });

    /** Every page at `limit` 1, following next_cursor. */
    async function pages(query: string) {
      const seen: DeliveryBody[][] = [];
      let cursor: string | null = null;
      do {
        const res: ApiResponse<DeliveryList> = await hooks.deliveries(
          hook.id,
          `?limit=1${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.pagination.limit).toBe(1);
        seen.push(res.body.deliveries);
        cursor = res.body.pagination.next_cursor;
        expect(seen.length).toBeLessThanOrEqual(4);
      } while (cursor);
      return seen;
    }

    it('limit 1: one delivery a page, no duplicates, next_cursor null at the end', async () => {
      expect((await pages('')).map((page) => page.map((d) => d.id))).toEqual([[sent[2].id], [sent[1].id], [sent[0].id]]);
      expect((await pages('&status=succeeded')).map((page) => page.map((d) => d.id))).toEqual([[sent[2].id], [sent[0].id]]);
    });

    it("a cursor of another list is refused: another status, another endpoint's, the audit log's", async () => {
      const first = await hooks.deliveries(hook.id, '?limit=1&status=succeeded');
      const cursor = encodeURIComponent(first.body.pagination.next_cursor!);
      expectRefused(await hooks.deliveries(hook.id, `?limit=1&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');
      expectRefused(await hooks.deliveries(hook.id, `?limit=1&status=pending&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');

      const other = await endpoint(hooks, { url: 'http://127.0.0.1:9/other', events: ['template.deleted'] });
      expectRefused(await hooks.deliveries(other.id, `?limit=1&status=succeeded&cursor=${cursor}`), 'VALIDATION_ERROR', 'cursor');
      const unfiltered = encodeURIComponent((await hooks.deliveries(hook.id, '?limit=1')).body.pagination.next_cursor!);
      expectRefused(await hooks.deliveries(other.id, `?cursor=${unfiltered}`), 'VALIDATION_ERROR', 'cursor');

      const audit = await eventually(
        () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?limit=1`, { token: o.keys.audit }),
        (res) => res.status === 200 && !!res.body.pagination.next_cursor,
      );
      expectRefused(
        await hooks.deliveries(hook.id, `?cursor=${encodeURIComponent(audit.body.pagination.next_cursor)}`),
        'VALIDATION_ERROR',
        'cursor',
      );
    });
  });

  describe('bad input: 400 naming the field, never a 500', () => {
    let bad: Awaited<ReturnType<typeof badInputOrg>>;
    let hooks: HooksApi;
    let baseline: WebhookBody;
    beforeAll(async () => {
      bad = await badInputOrg();
      ({ hooks, baseline } = bad);
    });

    const INVALID_QUERIES: [string, string][] = [
      ['?status=delivered', 'status'],
      ['?status=', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?cursor=garbage', 'cursor'],
      [`?cursor=${Buffer.from(JSON.stringify({ a: 'dlv_x', f: 'y' })).toString('base64url')}`, 'cursor'],
      ['?page=2', 'page'],
    ];
    it.each(INVALID_QUERIES)('deliveries with query %s: 400 VALIDATION_ERROR', async (query, field) => {
      expectRefused(await hooks.deliveries(baseline.id, query), 'VALIDATION_ERROR', field);
    });

    it('an id that is not a webhook id: 404, not a 500', async () => {
      expect((await hooks.deliveries('nope')).status).toBe(404);
    });
  });

  describe('isolation between organizations', () => {
    it("another organization's webhook id under one's own path: 404 WEBHOOK_NOT_FOUND", async () => {
      const world = await isolation();
      expectFailure(await hooksApi(world.a).deliveries(world.hookB.id), 404, 'WEBHOOK_NOT_FOUND');
    });
  });
});
