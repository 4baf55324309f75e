import fc from 'fast-check';
import { createTenantLimiter, type TenantLimiterDeps } from '../../shared/domain/rate-limits/tenant-limiter';
import { RateLimitedError } from '../../shared/core/errors';
import { formatRateLimit, type OrganizationLimits } from '../../shared/core/rate-limits';
import { parseRateLimit } from '../../shared/schemas/rate-limits';
import type { RateLimitCounters, RequestCounter } from '../../shared/storage/rate-limit-counters';

/**
 * The limiter's rules with counters held in memory (the same contract as the DynamoDB counters:
 * count only below the limit) and a clock the test moves. The DynamoDB counters themselves, and
 * the whole HTTP path, are exercised by test/integration/rate-limits.test.ts.
 */
function memoryCounters() {
  const counts = new Map<string, number>();
  const writes: string[] = [];
  const counters: RateLimitCounters = {
    async count(counter: RequestCounter) {
      writes.push(`count ${counter.id}`);
      const count = counts.get(counter.id) ?? 0;
      if (count >= counter.limit) return { admitted: false, count };
      counts.set(counter.id, count + 1);
      return { admitted: true, count: count + 1 };
    },
    async uncount(counter: RequestCounter) {
      writes.push(`uncount ${counter.id}`);
      counts.set(counter.id, (counts.get(counter.id) ?? 0) - 1);
    },
  };
  return { counters, counts, writes };
}

const DEFAULTS: OrganizationLimits = { rate: 10, burst: 20, daily_quota: null };
/** 2026-11-23T10:00:00.000Z: a whole number of 2-second windows from the epoch. */
const T0 = Date.parse('2026-11-23T10:00:00.000Z');

function limiterWith(overrides: Partial<TenantLimiterDeps> & { own?: Record<string, OrganizationLimits> } = {}) {
  const memory = memoryCounters();
  let now = T0;
  const reads: string[] = [];
  const limiter = createTenantLimiter({
    counters: memory.counters,
    organizationLimits: async (orgId) => (reads.push(orgId), overrides.own?.[orgId] ?? null),
    defaults: DEFAULTS,
    cacheSeconds: 30,
    now: () => now,
    ...overrides,
  });
  return { limiter, ...memory, reads, advance: (ms: number) => (now += ms), at: (time: number) => (now = time) };
}

async function outcome(promise: Promise<unknown>) {
  try {
    return { admitted: true, status: await promise };
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return { admitted: false, code: error.code, retryAfter: error.retryAfterSeconds, limit: error.limit, message: error.message };
  }
}

describe('tenant limiter', () => {
  it('admits burst requests in a window of burst / rate seconds, then refuses with the seconds left in the window', async () => {
    const { limiter, advance } = limiterWith();
    for (let i = 1; i <= 20; i += 1)
      expect(await limiter.admit({ orgId: 'org_a' })).toEqual({ limit: 20, remaining: 20 - i, resetSeconds: 2 });
    advance(500);
    expect(await outcome(limiter.admit({ orgId: 'org_a' }))).toEqual({
      admitted: false,
      code: 'RATE_LIMITED',
      retryAfter: 2,
      limit: 20,
      message: 'Organization org_a is over its rate limit (20 requests per 2 s, 10 per second): retry after 2 s.',
    });
    advance(1000);
    expect(await outcome(limiter.admit({ orgId: 'org_a' }))).toMatchObject({ admitted: false, retryAfter: 1 });
    advance(500);
    expect(await limiter.admit({ orgId: 'org_a' })).toEqual({ limit: 20, remaining: 19, resetSeconds: 2 });
  });

  it('counts each organization on its own: one at its limit leaves another untouched', async () => {
    const { limiter } = limiterWith();
    for (let i = 0; i < 60; i += 1) await outcome(limiter.admit({ orgId: 'org_flood' }));
    expect(await limiter.admit({ orgId: 'org_quiet' })).toEqual({ limit: 20, remaining: 19, resetSeconds: 2 });
  });

  it('remembers a full window: the refusals after the first cost no write until the window ends', async () => {
    const { limiter, writes, advance } = limiterWith();
    for (let i = 0; i < 20; i += 1) await limiter.admit({ orgId: 'org_a' });
    for (let i = 0; i < 40; i += 1) expect(await outcome(limiter.admit({ orgId: 'org_a' }))).toMatchObject({ admitted: false });
    expect(writes).toHaveLength(21);
    advance(2000);
    await limiter.admit({ orgId: 'org_a' });
    expect(writes).toHaveLength(22);
  });

  it("counts a key's own limit first, and a refusal by the organization's takes the key's count back", async () => {
    const { limiter, counts, writes } = limiterWith({ own: { org_a: { rate: 1, burst: 2, daily_quota: null } } });
    const key = { id: 'key_1', limit: { rate: 5, burst: 5 } };
    expect(await limiter.admit({ orgId: 'org_a', key })).toEqual({ limit: 2, remaining: 1, resetSeconds: 2 });
    expect(await limiter.admit({ orgId: 'org_a', key })).toEqual({ limit: 2, remaining: 0, resetSeconds: 2 });
    expect(await outcome(limiter.admit({ orgId: 'org_a', key }))).toMatchObject({ admitted: false, code: 'RATE_LIMITED', limit: 2 });
    expect(writes.slice(-3)).toEqual([
      'count key#key_1#1000ms#' + T0 / 1000,
      'count org#org_a#2000ms#' + T0 / 2000,
      'uncount key#key_1#1000ms#' + T0 / 1000,
    ]);
    expect(counts.get(`key#key_1#1000ms#${T0 / 1000}`)).toBe(2);
  });

  it("refuses a key over its own limit without spending its organization's budget", async () => {
    const { limiter, counts } = limiterWith();
    const key = { id: 'key_tight', limit: { rate: 1, burst: 2 } };
    await limiter.admit({ orgId: 'org_a', key });
    await limiter.admit({ orgId: 'org_a', key });
    expect(await outcome(limiter.admit({ orgId: 'org_a', key }))).toMatchObject({
      admitted: false,
      message: expect.stringContaining('API key key_tight is over its own rate limit'),
    });
    expect(counts.get(`org#org_a#2000ms#${T0 / 2000}`)).toBe(2);
    expect(await limiter.admit({ orgId: 'org_a', key: { id: 'key_other' } })).toEqual({ limit: 20, remaining: 17, resetSeconds: 2 });
  });

  it('refuses past the daily quota until 00:00 UTC, without keeping the refused request in the rate window', async () => {
    const evening = Date.parse('2026-11-23T23:59:58.000Z');
    const { limiter, counts, at } = limiterWith({ own: { org_a: { rate: 10, burst: 20, daily_quota: 3 } } });
    at(evening);
    for (let i = 0; i < 3; i += 1) await limiter.admit({ orgId: 'org_a' });
    expect(await outcome(limiter.admit({ orgId: 'org_a' }))).toEqual({
      admitted: false,
      code: 'QUOTA_EXCEEDED',
      retryAfter: 2,
      limit: 3,
      message: 'Organization org_a has used its daily quota of 3 requests: it renews at 00:00 UTC, in 2 s.',
    });
    expect(counts.get(`org#org_a#2000ms#${evening / 2000}`)).toBe(3);
    at(Date.parse('2026-11-24T00:00:00.001Z'));
    expect(await limiter.admit({ orgId: 'org_a' })).toEqual({ limit: 3, remaining: 2, resetSeconds: 86_400 });
  });

  it('reports the limit with the fewest requests left', async () => {
    const { limiter } = limiterWith({ own: { org_a: { rate: 10, burst: 20, daily_quota: 1000 } } });
    expect(await limiter.admit({ orgId: 'org_a' })).toEqual({ limit: 20, remaining: 19, resetSeconds: 2 });
    const { limiter: nearQuota } = limiterWith({ own: { org_a: { rate: 10, burst: 20, daily_quota: 5 } } });
    expect(await nearQuota.admit({ orgId: 'org_a' })).toEqual({ limit: 5, remaining: 4, resetSeconds: 50_400 });
  });

  it("reads an organization's limits once per cacheSeconds: a changed limit applies within that delay", async () => {
    const own: Record<string, OrganizationLimits> = {};
    const { limiter, reads, advance } = limiterWith({ own });
    expect(await limiter.admit({ orgId: 'org_a' })).toMatchObject({ limit: 20 });
    own.org_a = { rate: 50, burst: 100, daily_quota: null };
    advance(29_000);
    expect(await limiter.admit({ orgId: 'org_a' })).toMatchObject({ limit: 20 });
    advance(1_000);
    expect(await limiter.admit({ orgId: 'org_a' })).toMatchObject({ limit: 100 });
    expect(reads).toEqual(['org_a', 'org_a']);
  });

  it('never admits more than burst requests in any window, whatever the order of organizations and times', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('org_a', 'org_b'), fc.integer({ min: 0, max: 700 })), { maxLength: 200 }),
        async (requests) => {
          const { limiter, advance } = limiterWith({ own: { org_a: { rate: 2, burst: 3, daily_quota: null } } });
          const admitted = new Map<string, number>();
          for (const [orgId, wait] of requests) {
            const now = advance(wait);
            const result = await outcome(limiter.admit({ orgId }));
            const windowMs = orgId === 'org_a' ? 1500 : 2000;
            const window = `${orgId}#${Math.floor(now / windowMs)}`;
            if (result.admitted) admitted.set(window, (admitted.get(window) ?? 0) + 1);
            else expect(admitted.get(window)).toBe(orgId === 'org_a' ? 3 : 20);
          }
          for (const [window, count] of admitted) expect(count).toBeLessThanOrEqual(window.startsWith('org_a') ? 3 : 20);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a key limit in the authorizer context', () => {
  it('reads back what it wrote, and drops what is not a valid limit', () => {
    expect(parseRateLimit(formatRateLimit({ rate: 5, burst: 10 }))).toEqual({ rate: 5, burst: 10 });
    for (const text of [undefined, '', '5', '5/', '0/1', '10/5', '1.5/3', 'a/b', '5/10/15', '99999999/99999999'])
      expect(parseRateLimit(text)).toBeUndefined();
  });
});
