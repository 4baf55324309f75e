import * as v from 'valibot';
import { RATE_LIMIT_BOUNDS, type RateLimit } from '../core/rate-limits';

/* The schemas of rate limits (docs/rate-limits.md) given to the CLI, stored, or passed by the authorizer; what a limit is: shared/core/rate-limits.ts. */

/** The errors name no field: a refusal puts the field before them ("rate must be at least 1"). */
const wholeNumber = (description: string, { min, max }: { min: number; max: number }) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.description(description),
  );

const RATE_DESCRIPTION = `Requests per second, on average (${RATE_LIMIT_BOUNDS.rate.min} to ${RATE_LIMIT_BOUNDS.rate.max}).`;
const BURST_DESCRIPTION = 'Requests at once: each window of burst / rate seconds admits this many (at least rate).';

const burstAtLeastRate = <T extends RateLimit>() =>
  v.check((limit: T) => limit.burst >= limit.rate, 'burst must be at least rate (a window lasts burst / rate seconds, at least 1)');

/** A rate limit as given to the CLI or stored: whole numbers, burst at least rate. */
export const RateLimitSchema = v.pipe(
  v.strictObject({
    rate: wholeNumber(RATE_DESCRIPTION, RATE_LIMIT_BOUNDS.rate),
    burst: wholeNumber(BURST_DESCRIPTION, RATE_LIMIT_BOUNDS.burst),
  }),
  burstAtLeastRate(),
);

/** An organization's limits as given to the CLI or stored. */
export const OrganizationLimitsSchema = v.pipe(
  v.strictObject({
    rate: wholeNumber(RATE_DESCRIPTION, RATE_LIMIT_BOUNDS.rate),
    burst: wholeNumber(BURST_DESCRIPTION, RATE_LIMIT_BOUNDS.burst),
    daily_quota: v.nullable(wholeNumber('Requests per UTC day; null: no daily quota.', RATE_LIMIT_BOUNDS.dailyQuota)),
  }),
  burstAtLeastRate(),
);

/** Reads formatRateLimit's string (shared/core/rate-limits.ts) back; undefined when it is not a valid limit. */
export function parseRateLimit(text: string | undefined): RateLimit | undefined {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text ?? '');
  if (!match) return undefined;
  const parsed = v.safeParse(RateLimitSchema, { rate: Number(match[1]), burst: Number(match[2]) });
  return parsed.success ? parsed.output : undefined;
}
