import * as v from 'valibot';

/**
 * The limits of the per-tenant rate limiter (docs/rate-limits.md): the one definition the
 * config (defaults), the CLI (overrides), the stored items and the API key responses read.
 */
export const RATE_LIMIT_BOUNDS = {
  /** Requests per second, on average. */
  rate: { min: 1, max: 10_000 },
  /** Requests at once: the size of a window, which lasts burst / rate seconds. */
  burst: { min: 1, max: 100_000 },
  /** Requests per UTC day. */
  dailyQuota: { min: 1, max: 1_000_000_000 },
} as const;

const wholeNumber = (name: string, { min, max }: { min: number; max: number }) =>
  v.pipe(v.number(`${name} must be a number`), v.integer(`${name} must be a whole number`), v.minValue(min, `${name} must be at least ${min}`), v.maxValue(max, `${name} must be at most ${max}`));

/** A rate and a burst: at most `burst` requests in each window of burst / rate seconds. */
export interface RateLimit {
  rate: number;
  burst: number;
}

/** An organization's limits: its rate limit, and how many requests a UTC day allows (null: no quota). */
export interface OrganizationLimits extends RateLimit {
  daily_quota: number | null;
}

const burstAtLeastRate = <T extends RateLimit>() => v.check((limit: T) => limit.burst >= limit.rate, 'burst must be at least rate (a window lasts burst / rate seconds, at least 1)');

/** A rate limit as given to the CLI or stored: whole numbers, burst at least rate. */
export const RateLimitSchema = v.pipe(
  v.object({ rate: wholeNumber('rate', RATE_LIMIT_BOUNDS.rate), burst: wholeNumber('burst', RATE_LIMIT_BOUNDS.burst) }),
  burstAtLeastRate(),
);

/** An organization's limits as given to the CLI or stored. */
export const OrganizationLimitsSchema = v.pipe(
  v.object({
    rate: wholeNumber('rate', RATE_LIMIT_BOUNDS.rate),
    burst: wholeNumber('burst', RATE_LIMIT_BOUNDS.burst),
    daily_quota: v.nullable(wholeNumber('daily_quota', RATE_LIMIT_BOUNDS.dailyQuota)),
  }),
  burstAtLeastRate(),
);

/** The window a rate limit counts in, in milliseconds: burst / rate seconds. */
export function windowMillisecondsOf(limit: RateLimit): number {
  return Math.round((limit.burst / limit.rate) * 1000);
}

/** A rate limit as one string ("rate/burst"): how it travels in the authorizer's context, whose values are strings. */
export function formatRateLimit(limit: RateLimit): string {
  return `${limit.rate}/${limit.burst}`;
}

/** Reads formatRateLimit's string back; undefined when it is not a valid limit. */
export function parseRateLimit(text: string | undefined): RateLimit | undefined {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text ?? '');
  if (!match) return undefined;
  const parsed = v.safeParse(RateLimitSchema, { rate: Number(match[1]), burst: Number(match[2]) });
  return parsed.success ? parsed.output : undefined;
}
