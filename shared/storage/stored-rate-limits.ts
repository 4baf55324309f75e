import { RATE_LIMIT_BOUNDS, type OrganizationLimits, type RateLimit } from '../core/rate-limits';

/**
 * Storage's own readers of the rate limits it keeps (an organization's `rate_limits`, a key's
 * `rate_limit`): what the CLI and the domain write, read back with the bounds of
 * shared/core/rate-limits.ts, without the API's schemas. Anything else (another field, a
 * number out of bounds, burst under rate) reads as undefined: the caller refuses the item.
 */
type Bounds = { readonly min: number; readonly max: number };

const wholeNumberWithin = (value: unknown, { min, max }: Bounds): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const hasOnlyFields = (value: Record<string, unknown>, fields: readonly string[]) =>
  Object.keys(value).every((field) => fields.includes(field));

/** A stored rate limit: `{rate, burst}`, whole numbers within bounds, burst at least rate. */
export function readStoredRateLimit(value: unknown): RateLimit | undefined {
  if (!isRecord(value) || !hasOnlyFields(value, ['rate', 'burst'])) return undefined;
  const { rate, burst } = value;
  if (!wholeNumberWithin(rate, RATE_LIMIT_BOUNDS.rate) || !wholeNumberWithin(burst, RATE_LIMIT_BOUNDS.burst) || burst < rate)
    return undefined;
  return { rate, burst };
}

/** An organization's stored limits: a rate limit and `daily_quota` (a whole number within bounds, or null). */
export function readStoredOrganizationLimits(value: unknown): OrganizationLimits | undefined {
  if (!isRecord(value) || !hasOnlyFields(value, ['rate', 'burst', 'daily_quota'])) return undefined;
  const { daily_quota: dailyQuota, ...rateLimit } = value;
  const limit = readStoredRateLimit(rateLimit);
  if (!limit || !(dailyQuota === null || wholeNumberWithin(dailyQuota, RATE_LIMIT_BOUNDS.dailyQuota))) return undefined;
  return { ...limit, daily_quota: dailyQuota };
}
