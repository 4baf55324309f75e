import * as v from 'valibot';
import { RATE_LIMIT_BOUNDS, type RateLimit } from '../domain/rate-limits/limits';

/* The schemas of rate limits (docs/rate-limits.md) given to the CLI, stored, or passed by the authorizer; what a limit is: shared/domain/rate-limits/limits.ts. */

const wholeNumber = (name: string, { min, max }: { min: number; max: number }) =>
  v.pipe(v.number(`${name} must be a number`), v.integer(`${name} must be a whole number`), v.minValue(min, `${name} must be at least ${min}`), v.maxValue(max, `${name} must be at most ${max}`));

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

/** Reads formatRateLimit's string (shared/domain/rate-limits/limits.ts) back; undefined when it is not a valid limit. */
export function parseRateLimit(text: string | undefined): RateLimit | undefined {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text ?? '');
  if (!match) return undefined;
  const parsed = v.safeParse(RateLimitSchema, { rate: Number(match[1]), burst: Number(match[2]) });
  return parsed.success ? parsed.output : undefined;
}
