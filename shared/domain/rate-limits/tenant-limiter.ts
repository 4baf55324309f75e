import { RateLimitedError } from '../../core/errors';
import { windowMillisecondsOf, type OrganizationLimits, type RateLimit } from '../../core/rate-limits';
import { counterIds, type RateLimitCounters, type RequestCounter } from '../../storage/rate-limit-counters';

/** Who a request is counted against: its organization, and the API key that sent it (with the key's own limit, when it has one). */
export interface LimitSubject {
  orgId: string;
  key?: { id: string; limit?: RateLimit };
}

/**
 * What the RateLimit-* response headers say after a request was counted: the limit nearest to
 * refusing (the one with the fewest requests left), how many it has left, and the seconds until
 * its window ends (draft-ietf-httpapi-ratelimit-headers).
 */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface TenantLimiterDeps {
  counters: RateLimitCounters;
  /** An organization's own limits: null when it has none (the defaults apply). */
  organizationLimits: (orgId: string) => Promise<OrganizationLimits | null | undefined>;
  defaults: OrganizationLimits;
  /** How long an organization's limits, and a counter known to be full, are kept in memory: the delay before a changed limit applies. */
  cacheSeconds: number;
  /** Epoch milliseconds. */
  now: () => number;
}

export interface TenantLimiter {
  /**
   * Counts one request against every limit of its subject, in order: the key's own limit, the
   * organization's rate limit, its daily quota. A limit that refuses takes back the counts made
   * before it (a refused request counts nowhere) and throws RateLimitedError (429).
   */
  admit(subject: LimitSubject): Promise<RateLimitStatus>;
}

/** One limit a request is counted against, with what a refusal by it says. */
interface Check {
  counter: RequestCounter;
  refusal: (retryAfterSeconds: number) => RateLimitedError;
}

const DAY_MS = 86_400_000;
/** At most this many organizations' limits and full counters are remembered by one function instance. */
const MEMORY_ENTRIES = 10_000;

/**
 * The per-organization (and per-key) rate limiter: fixed windows of burst / rate seconds holding
 * at most `burst` requests, and a UTC day holding at most `daily_quota`, counted in DynamoDB by
 * one conditional write per limit (docs/rate-limits.md). Every function instance counts in the
 * same counters, so the limit holds whatever instance or authorizer cache a request went through.
 * A counter found full is remembered until its window ends (at most `cacheSeconds`): the
 * further requests of a flood are refused with no write at all.
 */
export function createTenantLimiter(deps: TenantLimiterDeps): TenantLimiter {
  const limitsByOrg = new ExpiringMemory<OrganizationLimits>();
  /** The counters this instance found full, until their window ends. */
  const fullCounters = new ExpiringMemory<true>();
  const cacheMs = deps.cacheSeconds * 1000;

  const limitsOf = async (orgId: string, now: number): Promise<OrganizationLimits> => {
    const cached = limitsByOrg.get(orgId, now);
    if (cached) return cached;
    const limits = (await deps.organizationLimits(orgId)) ?? deps.defaults;
    limitsByOrg.set(orgId, limits, now + cacheMs, now);
    return limits;
  };

  return {
    async admit(subject) {
      const now = deps.now();
      const checks = checksOf(subject, await limitsOf(subject.orgId, now), now);
      // A counter this instance saw full refuses again, with no write, until its window ends.
      for (const check of checks) {
        if (fullCounters.get(check.counter.id, now)) throw check.refusal(secondsUntil(check.counter.endsAt, now));
      }
      const counted: { check: Check; count: number }[] = [];
      for (const check of checks) {
        const result = await deps.counters.count(check.counter);
        if (!result.admitted) {
          fullCounters.set(check.counter.id, true, Math.min(check.counter.endsAt, now + cacheMs), now);
          // Best effort: a take-back that fails leaves one count too many in a window, never one too few.
          await Promise.allSettled(counted.map(({ check: earlier }) => deps.counters.uncount(earlier.counter)));
          throw check.refusal(secondsUntil(check.counter.endsAt, now));
        }
        counted.push({ check, count: result.count });
      }
      const statuses = counted.map(({ check, count }) => ({
        limit: check.counter.limit,
        remaining: Math.max(0, check.counter.limit - count),
        resetSeconds: secondsUntil(check.counter.endsAt, now),
      }));
      return statuses.reduce((nearest, status) => (status.remaining < nearest.remaining ? status : nearest));
    },
  };
}

/** The counters a request goes through, in the order they are counted. */
function checksOf(subject: LimitSubject, limits: OrganizationLimits, now: number): Check[] {
  const checks: Check[] = [];
  const keyLimit = subject.key?.limit;
  if (subject.key && keyLimit) {
    const { id: keyId } = subject.key;
    checks.push({
      counter: windowCounter(keyLimit, now, (windowMs, index) => counterIds.keyWindow(keyId, windowMs, index)),
      refusal: (retryAfter) =>
        new RateLimitedError(
          'RATE_LIMITED',
          `API key ${keyId} is over its own rate limit (${describeLimit(keyLimit)}): retry after ${retryAfter} s.`,
          retryAfter,
          keyLimit.burst,
        ),
    });
  }
  checks.push({
    counter: windowCounter(limits, now, (windowMs, index) => counterIds.organizationWindow(subject.orgId, windowMs, index)),
    refusal: (retryAfter) =>
      new RateLimitedError(
        'RATE_LIMITED',
        `Organization ${subject.orgId} is over its rate limit (${describeLimit(limits)}): retry after ${retryAfter} s.`,
        retryAfter,
        limits.burst,
      ),
  });
  const quota = limits.daily_quota;
  if (quota !== null) {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    checks.push({
      counter: {
        id: counterIds.organizationDay(subject.orgId, new Date(dayStart).toISOString().slice(0, 10)),
        limit: quota,
        endsAt: dayStart + DAY_MS,
      },
      refusal: (retryAfter) =>
        new RateLimitedError(
          'QUOTA_EXCEEDED',
          `Organization ${subject.orgId} has used its daily quota of ${quota} requests: it renews at 00:00 UTC, in ${retryAfter} s.`,
          retryAfter,
          quota,
        ),
    });
  }
  return checks;
}

/** The counter of the window `now` falls in: windows of burst / rate seconds from the epoch, each admitting `burst` requests. */
function windowCounter(limit: RateLimit, now: number, idOf: (windowMs: number, index: number) => string): RequestCounter {
  const windowMs = windowMillisecondsOf(limit);
  const index = Math.floor(now / windowMs);
  return { id: idOf(windowMs, index), limit: limit.burst, endsAt: (index + 1) * windowMs };
}

/** Whole seconds until `end`, at least 1: what Retry-After and RateLimit-Reset say. */
function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

function describeLimit(limit: RateLimit): string {
  const windowSeconds = windowMillisecondsOf(limit) / 1000;
  return `${limit.burst} requests per ${windowSeconds} s, ${limit.rate} per second`;
}

/** What a function instance remembers, each entry until its own time; bounded, so a flood of organizations cannot grow it without end. */
class ExpiringMemory<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > now ? entry.value : undefined;
  }

  set(key: string, value: T, until: number, now: number): void {
    if (this.entries.size >= MEMORY_ENTRIES) {
      for (const [entry, held] of this.entries) if (held.until <= now) this.entries.delete(entry);
      if (this.entries.size >= MEMORY_ENTRIES) this.entries.clear();
    }
    this.entries.set(key, { value, until });
  }
}
