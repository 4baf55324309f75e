import type { ErrorCode } from '../core/error-codes';
import { CORS_RESPONSE_HEADERS } from '../http/gateway';
import { IDEMPOTENCY_HEADERS, IN_PROGRESS_RETRY_AFTER_SECONDS } from '../http/middlewares/idempotency';
import { withIntegerFormats, type Json } from './json-schema';
import { ANSWERED_UNCOUNTED, NEVER_REPLAYED } from './refusals';

/**
 * The response headers the document declares, as components every response that can carry one
 * refers to (a header is optional unless `required`: it is declared where it may come).
 */

/** A header's name as the document writes it, from the name the code sends: `idempotent-replayed` → `Idempotent-Replayed`. */
const titled = (name: string) => name.replace(/(^|-)\w/g, (c) => c.toUpperCase());

/** As the draft writes them; shared/core/errors.ts rateLimitHeaders sends them (test/unit/openapi.test.ts holds the two together). */
export const RATE_LIMIT_HEADER_NAMES = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const REPLAYED = titled(IDEMPOTENCY_HEADERS.replayed);
const ALLOW_ORIGIN = titled('access-control-allow-origin');

/** The header components (draft-ietf-httpapi-ratelimit-headers for the rate limits; docs/rate-limits.md, docs/idempotency.md). */
export const RESPONSE_HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {
    description:
      "The requests the limit nearest to refusing admits per window: the organization's burst, the API key's own burst, or the daily quota. " +
      "On every response to a request the rate limiter counted (an API key's once it is authenticated, an ID token's once the access policy found its organization), refusals included; " +
      "never on one answered before (401, 413, 414, 415, 431, the stage's 429 TOO_MANY_REQUESTS).",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'The requests that limit still admits in its current window (0 on a 429 it refused).',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: "Seconds until that limit's window ends and it admits requests again.",
    schema: { type: 'integer', minimum: 1 },
  },
  'Retry-After': {
    description: `Seconds to wait before sending the request again: until the window of the limit that refused it ends (00:00 UTC for the daily quota; 1 s for the stage); ${IN_PROGRESS_RETRY_AFTER_SECONDS} s while the first request with the same Idempotency-Key still runs.`,
    schema: { type: 'integer', minimum: 1 },
  },
  [REPLAYED]: {
    description:
      'Present, with the value true, on a response replayed for an Idempotency-Key seen before (the operation did not run again): its first response, a 4xx included.',
    schema: { type: 'string', enum: ['true'] },
  },
  [ALLOW_ORIGIN]: {
    description:
      "Every response, refusals and the gateway's own included: any origin may call the API (credentials are bearer tokens, never cookies).",
    schema: { type: 'string', enum: [CORS_RESPONSE_HEADERS['access-control-allow-origin']] },
  },
};
for (const header of Object.values(RESPONSE_HEADERS)) withIntegerFormats(header.schema);

const ref = (name: string) => ({ [name]: { $ref: `#/components/headers/${name}` } });
const refs = (names: string[]) => Object.assign({}, ...names.map(ref)) as Json;

/** What decides the headers of an operation's responses. */
export interface HeaderContext {
  /** The route counts against the rate limits (countsAgainstRateLimits). */
  counted: boolean;
  /** The route takes an Idempotency-Key. */
  keyed: boolean;
}

/** The headers of a success response. */
export function successHeaders({ counted, keyed }: HeaderContext): Json {
  return { ...ref(ALLOW_ORIGIN), ...(keyed ? ref(REPLAYED) : {}), ...(counted ? refs(RATE_LIMIT_HEADER_NAMES) : {}) };
}

/**
 * The headers of a refusal, from the codes it may carry: RateLimit-* unless every one is answered
 * before the request is counted, Idempotent-Replayed when one may be a stored answer, Retry-After
 * on a 429 and on IDEMPOTENCY_KEY_IN_PROGRESS.
 */
export function refusalHeaders(status: number, codes: readonly ErrorCode[], { counted, keyed }: HeaderContext): Json {
  const retry = status === 429 || codes.includes('IDEMPOTENCY_KEY_IN_PROGRESS');
  const rateLimited = counted && codes.some((code) => !ANSWERED_UNCOUNTED.has(code));
  const replayable = keyed && codes.some((code) => !NEVER_REPLAYED.has(code));
  return {
    ...ref(ALLOW_ORIGIN),
    ...(retry ? ref('Retry-After') : {}),
    ...(rateLimited ? refs(RATE_LIMIT_HEADER_NAMES) : {}),
    ...(replayable ? ref(REPLAYED) : {}),
  };
}
