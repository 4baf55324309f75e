import * as v from 'valibot';
import { limitsOfOrganization, setLimitsOfOrganization, setRateLimitOfApiKey } from '../../shared/operator-tasks/rate-limits';
import { askAllowanceOf, setAskAllowanceOf } from '../../shared/operator-tasks/ask-allowance';
import { setTranscriptionAllowanceOf, transcriptionAllowanceOf } from '../../shared/operator-tasks/transcription-allowance';
import { CliError } from './cli-error';
import { commandUsage } from './command-line';
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
const rateLimitOf = (flags: Record<string, string | undefined>) =>
  parseInput(RateLimitSchema, { rate: numberOf(flags.rate), burst: numberOf(flags.burst) });

const rateFlags = {
  rate: { placeholder: 'R', required: true, description: 'requests per second, on average (a whole number, 1 to 10000)' },
  burst: { placeholder: 'B', required: true, description: 'requests at once: each window of B/R seconds admits B requests (at least R)' },
} as const;

/** A monthly allowance of transcription minutes: a whole number from 0, or `none`. */
const TranscriptionMinutes = v.union([
  v.literal('none'),
  v.pipe(
    v.number('must be a whole number of minutes, or none'),
    v.integer('must be a whole number of minutes, or none'),
    v.minValue(0, 'must be at least 0'),
    v.maxValue(100_000_000, 'must be at most 100000000'),
  ),
]);

/** A daily allowance of questions: a whole number from 0. */
const AskDaily = v.pipe(
  v.number('must be a whole number of questions, or default'),
  v.integer('must be a whole number of questions, or default'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(1_000_000, 'must be at most 1000000'),
);

const setLimitsFlags = {
  org: { placeholder: 'O', required: true, description: 'the organization id' },
  rate: { placeholder: 'R', description: 'requests per second, on average (a whole number, 1 to 10000), with --burst' },
  burst: { placeholder: 'B', description: 'requests at once: each window of B/R seconds admits B requests (at least R), with --rate' },
  'daily-quota': { placeholder: 'Q', description: 'requests per UTC day (default: none), with --rate and --burst' },
  'transcription-minutes': { placeholder: 'N', description: 'transcription minutes per UTC month (default: none; `none` removes it)' },
  'ask-daily': {
    placeholder: 'N',
    description: 'questions (Ask) per UTC day (default: ASK_DAILY_DEFAULT, 200; `default` removes its own)',
  },
} as const;

export const LIMIT_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'org set-limits': {
    summary:
      'give an organization its own rate limit (and daily quota) instead of the defaults, and/or a monthly allowance of transcription minutes',
    notes:
      "Every request of the organization counts, whatever its credential. Functions apply the change within RATE_LIMIT_CACHE_SECONDS (30 s by default). Without --daily-quota the organization has no daily quota. --transcription-minutes alone leaves the rate limit as it is: once the month's minutes reach it, transcription is refused (403 TRANSCRIPTION_QUOTA_EXCEEDED) until the next UTC month.",
    flags: setLimitsFlags,
    run: async (flags, { db, limitDefaults }) => {
      const orgId = orgIdOf(flags);
      const minutesFlag = flags['transcription-minutes'];
      const rateGiven = flags.rate !== undefined || flags.burst !== undefined || flags['daily-quota'] !== undefined;
      const askFlag = flags['ask-daily'];
      if (!rateGiven && minutesFlag === undefined && askFlag === undefined)
        throw new CliError('MISSING_FLAG', 'org set-limits needs --rate and --burst, --transcription-minutes or --ask-daily.', {
          usage: commandUsage('org set-limits', LIMIT_COMMANDS['org set-limits']),
        });
      for (const [given, missing] of [
        ['rate', 'burst'],
        ['burst', 'rate'],
      ] as const) {
        if (flags[given] !== undefined && flags[missing] === undefined)
          throw new CliError('MISSING_FLAG', `org set-limits needs --${missing} with --${given}.`, {
            usage: commandUsage('org set-limits', LIMIT_COMMANDS['org set-limits']),
          });
      }
      const minutes =
        minutesFlag === undefined
          ? undefined
          : parseInput(v.object({ 'transcription-minutes': TranscriptionMinutes }), {
              'transcription-minutes': minutesFlag === 'none' ? 'none' : numberOf(minutesFlag),
            })['transcription-minutes'];
      const view = rateGiven
        ? await setLimitsOfOrganization(
            db,
            orgId,
            parseInput(OrganizationLimitsSchema, {
              rate: numberOf(flags.rate),
              burst: numberOf(flags.burst),
              daily_quota: flags['daily-quota'] === undefined ? null : numberOf(flags['daily-quota']),
            }),
            limitDefaults,
            now(),
          )
        : await limitsOfOrganization(db, orgId, limitDefaults);
      const allowance =
        minutes === undefined
          ? await transcriptionAllowanceOf(db, orgId, now())
          : await setTranscriptionAllowanceOf(db, orgId, minutes === 'none' ? null : minutes, now());
      if (askFlag !== undefined) {
        const perDay =
          askFlag === 'default' ? null : parseInput(v.object({ 'ask-daily': AskDaily }), { 'ask-daily': numberOf(askFlag) })['ask-daily'];
        await setAskAllowanceOf(db, orgId, perDay, now());
      }
      return { ...view, transcription_minutes: allowance, ask_daily: await askAllowanceOf(db, orgId) };
    },
  },
  'org clear-limits': {
    summary: 'put an organization back on the default limits (no transcription allowance)',
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    notes: 'Also removes its monthly allowance of transcription minutes (the default is none) and its own daily allowance of questions.',
    run: async (flags, { db, limitDefaults }) => {
      const view = await setLimitsOfOrganization(db, orgIdOf(flags), null, limitDefaults, now());
      await setAskAllowanceOf(db, view.org_id, null, now());
      return { ...view, transcription_minutes: await setTranscriptionAllowanceOf(db, view.org_id, null, now()), ask_daily: null };
    },
  },
  'org get-limits': {
    summary:
      'print the limits that apply to an organization (its own, or the defaults), and its monthly allowance of transcription minutes',
    notes:
      'In AWS the defaults printed are RATE_LIMIT_DEFAULT_* of this shell (the config defaults when unset): export the values the stack was deployed with.',
    flags: { org: { placeholder: 'O', required: true, description: 'the organization id' } },
    run: async (flags, { db, limitDefaults }) => {
      const view = await limitsOfOrganization(db, orgIdOf(flags), limitDefaults);
      return {
        ...view,
        transcription_minutes: await transcriptionAllowanceOf(db, view.org_id, now()),
        ask_daily: await askAllowanceOf(db, view.org_id),
      };
    },
  },
  'key set-limits': {
    summary: "give an API key its own rate limit, counted besides its organization's",
    notes:
      "A request must pass both the key's limit and its organization's. A key's cached authorizer result (60 s) may carry its previous limit that long.",
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
