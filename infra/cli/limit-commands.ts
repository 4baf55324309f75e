import * as v from 'valibot';
import { limitsOfOrganization, setLimitsOfOrganization, setRateLimitOfApiKey } from '../../shared/operations/rate-limits';
import { parseInput } from '../../shared/schemas/validation';
import { Id } from '../../shared/schemas/common';
import { OrganizationLimitsSchema, RateLimitSchema } from '../../shared/schemas/rate-limits';
import type { CommandSpec } from './command-line';
import type { CliTarget } from './target';

/* The operator's rate limit commands (docs/rate-limits.md). */

const now = () => new Date();
const NUMBER = /^\d{1,10}(\.\d{1,10})?$/;
/** A flag's number, left as text when it is not one: the limit's schema refuses either with its own message (not a number, not whole). */
const numberOf = (value: string | undefined) => (value !== undefined && NUMBER.test(value) ? Number(value) : value);
const orgIdOf = (flags: Record<string, string | undefined>) => parseInput(v.object({ org: Id }), { org: flags.org }).org;
const keyIdOf = (flags: Record<string, string | undefined>) => parseInput(v.object({ id: v.string() }), { id: flags.id }).id;
const rateLimitOf = (flags: Record<string, string | undefined>) => parseInput(RateLimitSchema, { rate: numberOf(flags.rate), burst: numberOf(flags.burst) });

const rateFlags = {
  rate: { placeholder: 'R', required: true, description: 'requests per second, on average (a whole number, 1 to 10000)' },
  burst: { placeholder: 'B', required: true, description: 'requests at once: each window of B/R seconds admits B requests (at least R)' },
} as const;

export const LIMIT_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'org set-limits': {
    summary: "give an organization its own rate limit (and daily quota) instead of the defaults",
    notes:
      'Every request of the organization counts, whatever its credential. Functions apply the change within RATE_LIMIT_CACHE_SECONDS (30 s by default). Without --daily-quota the organization has no daily quota.',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization id' },
      ...rateFlags,
      'daily-quota': { placeholder: 'Q', description: 'requests per UTC day (default: none)' },
    },
    run: (flags, { db, limitDefaults }) => {
      const limits = parseInput(OrganizationLimitsSchema, {
        rate: numberOf(flags.rate),
        burst: numberOf(flags.burst),
        daily_quota: flags['daily-quota'] === undefined ? null : numberOf(flags['daily-quota']),
      });
      return setLimitsOfOrganization(db, orgIdOf(flags), limits, limitDefaults, now());
    },
  },
  'org clear-limits': {
    summary: 'put an organization back on the default limits',
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    run: (flags, { db, limitDefaults }) => setLimitsOfOrganization(db, orgIdOf(flags), null, limitDefaults, now()),
  },
  'org get-limits': {
    summary: "print the limits that apply to an organization (its own, or the defaults)",
    notes: 'In AWS the defaults printed are RATE_LIMIT_DEFAULT_* of this shell (the config defaults when unset): export the values the stack was deployed with.',
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    run: (flags, { db, limitDefaults }) => limitsOfOrganization(db, orgIdOf(flags), limitDefaults),
  },
  'key set-limits': {
    summary: "give an API key its own rate limit, counted besides its organization's",
    notes: "A request must pass both the key's limit and its organization's. A key's cached authorizer result (60 s) may carry its previous limit that long.",
    flags: { id: { placeholder: 'K', required: true, description: 'the key id (key_…)' }, ...rateFlags },
    run: (flags, { db }) => setRateLimitOfApiKey(db, keyIdOf(flags), rateLimitOf(flags), now()),
  },
  'key clear-limits': {
    summary: "remove an API key's own rate limit (its organization's still applies)",
    flags: { id: { placeholder: 'K', required: true, description: 'the key id (key_…)' } },
    run: (flags, { db }) => setRateLimitOfApiKey(db, keyIdOf(flags), null, now()),
  },
};

/** The optional --rate and --burst of `key create`: both or neither. */
export function optionalKeyRateLimit(flags: Record<string, string | undefined>) {
  return flags.rate === undefined && flags.burst === undefined ? undefined : rateLimitOf(flags);
}
