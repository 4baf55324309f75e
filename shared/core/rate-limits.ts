/**
 * What a rate limit is (docs/rate-limits.md), with no schema library: the config reads these
 * bounds in every function, including those that bundle no API schema. The valibot schemas
 * that check limits given to the CLI or stored are in shared/schemas/rate-limits.ts.
 */
export const RATE_LIMIT_BOUNDS = {
  /** Requests per second, on average. */
  rate: { min: 1, max: 10_000 },
  /** Requests at once: the size of a window, which lasts burst / rate seconds. */
  burst: { min: 1, max: 100_000 },
  /** Requests per UTC day. */
  dailyQuota: { min: 1, max: 1_000_000_000 },
} as const;

/** A rate and a burst: at most `burst` requests in each window of burst / rate seconds. */
export interface RateLimit {
  rate: number;
  burst: number;
}

/** An organization's limits: its rate limit, and how many requests a UTC day allows (null: no quota). */
export interface OrganizationLimits extends RateLimit {
  daily_quota: number | null;
}

/** The window a rate limit counts in, in milliseconds: burst / rate seconds. */
export function windowMillisecondsOf(limit: RateLimit): number {
  return Math.round((limit.burst / limit.rate) * 1000);
}

/** A rate limit as one string ("rate/burst"): how it travels in the authorizer's context, whose values are strings. */
export function formatRateLimit(limit: RateLimit): string {
  return `${limit.rate}/${limit.burst}`;
}
