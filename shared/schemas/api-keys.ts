import * as v from 'valibot';
import { SCOPES } from '../core/access';
import { integerParam } from './validation';
import { Id, Timestamp } from './common';
import { RateLimitSchema } from './rate-limits';

/**
 * API keys managed through the API: the one place their request rules, response shapes and
 * OpenAPI documentation come from (docs/api-keys.md tells the story).
 */
export const API_KEY_LIMITS = {
  name: 100,
  /** The longest grace period a rotation may give the replaced secret: 24 hours. */
  maxGracePeriodSeconds: 86_400,
} as const;

/** An organization key acts for the organization; a personal key acts as its member. */
export const API_KEY_KINDS = ['org', 'personal'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** The page size of a key list. */
export const API_KEY_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

/** A key's state, derived: revoked wins over expired. */
export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

const KeyName = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(API_KEY_LIMITS.name, `must be at most ${API_KEY_LIMITS.name} characters`),
  v.check((name) => !CONTROL_CHARACTERS.test(name), 'must not contain control characters'),
  v.description('What the key is for, to recognise it in lists and the audit log.'),
);

const Scopes = v.pipe(
  v.array(v.picklist(SCOPES, `must be scopes of docs/api-keys.md (${SCOPES.join(', ')})`), 'must be an array of scopes'),
  v.minLength(1, 'must name at least one scope'),
  // Already so without repeats: stated for the document's maxItems.
  v.maxLength(SCOPES.length, `must name at most ${SCOPES.length} scopes`),
  v.check((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
);

export const CreateApiKeyBody = v.strictObject({
  kind: v.pipe(
    v.picklist(API_KEY_KINDS, `must be one of ${API_KEY_KINDS.join(', ')}`),
    v.description('`org`: acts for the organization (owners and admins create them). `personal`: acts as you, within your role.'),
  ),
  name: KeyName,
  scopes: v.pipe(Scopes, v.description("What the key may do. They cannot exceed your role's: see docs/api-keys.md for each scope's role.")),
  expires_at: v.optional(v.pipe(Timestamp, v.description('When the key stops working; in the future. Absent: it works until revoked.'))),
  rate_limit: v.optional(
    v.pipe(
      RateLimitSchema,
      v.description(
        "The key's own rate limit, counted besides its organization's (docs/rate-limits.md): over it, 429 RATE_LIMITED. Absent: only the organization's.",
      ),
    ),
  ),
});
export type CreateApiKeyBody = v.InferOutput<typeof CreateApiKeyBody>;

/** The body is optional: no body rotates with no grace period. */
export const RotateApiKeyBody = v.optional(
  v.strictObject({
    grace_period_seconds: v.optional(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be a whole number of seconds'),
        v.minValue(0, 'must be 0 or more'),
        v.maxValue(API_KEY_LIMITS.maxGracePeriodSeconds, `must be at most ${API_KEY_LIMITS.maxGracePeriodSeconds} (24 hours)`),
        v.description('How long the replaced secret keeps working, 0 to 86400 seconds; 0 (the default) stops it at once.'),
      ),
      0,
    ),
  }),
  {},
);
export type RotateApiKeyBody = v.InferOutput<typeof RotateApiKeyBody>;

export const ListApiKeysQuery = v.strictObject({
  user_id: v.optional(
    v.pipe(Id, v.description("Only this member's personal keys. Members other than owners and admins always get only their own.")),
  ),
  limit: integerParam({ defaultValue: API_KEY_PAGE.defaultLimit, min: 1, max: API_KEY_PAGE.maxLimit, description: 'Keys per page.' }),
  cursor: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("The previous page's `next_cursor`, with the same `user_id`.")),
  ),
});
export type ListApiKeysQuery = v.InferOutput<typeof ListApiKeysQuery>;

/** An API key as the API shows it: never its secret, nor a hash of it. */
export const ApiKey = v.strictObject({
  id: v.pipe(Id, v.description("The key's id (`key_…`): name it to read, rotate or revoke the key. Not the secret.")),
  kind: v.pipe(
    v.picklist(API_KEY_KINDS),
    v.description('`org`: acts for the organization; `personal`: acts as its member, within their role.'),
  ),
  name: v.pipe(v.string(), v.description('What the key is for.')),
  prefix: v.pipe(v.string(), v.description('The first characters of the current secret, to recognise it.')),
  scopes: v.pipe(v.array(v.picklist(SCOPES)), v.description('What the key may do (docs/api-keys.md).')),
  user_id: v.pipe(v.nullable(Id), v.description('The member a personal key acts as; null for an organization key.')),
  status: v.pipe(
    v.picklist(API_KEY_STATUSES),
    v.description('`revoked` once revoked, `expired` once `expires_at` has passed, else `active`.'),
  ),
  created_at: v.pipe(Timestamp, v.description('When the key was created (ISO 8601 UTC).')),
  created_by: v.pipe(v.nullable(Id), v.description('The user who created it; null for keys the operator created.')),
  last_used_at: v.pipe(v.nullable(Timestamp), v.description('When it was last used, to the hour: a use is recorded at most once an hour.')),
  expires_at: v.pipe(v.nullable(Timestamp), v.description('When the key stops working; null: never (until revoked).')),
  revoked_at: v.pipe(v.nullable(Timestamp), v.description('When it was revoked; null while not revoked.')),
  rotated_at: v.pipe(v.nullable(Timestamp), v.description('When its secret was last replaced; null if never.')),
  rate_limit: v.pipe(
    v.nullable(RateLimitSchema),
    v.description(
      "The key's own rate limit (requests per second and at once), counted besides its organization's; null: only the organization's (docs/rate-limits.md).",
    ),
  ),
});
export type ApiKey = v.InferOutput<typeof ApiKey>;

const Secret = v.pipe(
  v.string(),
  v.regex(/^pk_(org|user)_[0-9a-f]{48}$/),
  v.description('The key itself: shown only here. Send it as `Authorization: Bearer <key>`.'),
);

/** The answer of create: the key and, this once, its secret. */
export const CreatedApiKey = v.strictObject({ ...ApiKey.entries, secret: Secret });

/** The answer of rotate: the new secret, and until when the replaced one still works. */
export const RotatedApiKey = v.strictObject({
  ...ApiKey.entries,
  secret: Secret,
  previous_secret_expires_at: v.pipe(
    Timestamp,
    v.description('Until then the replaced secret still works; the rotation time when there was no grace period.'),
  ),
});

export const ApiKeyList = v.strictObject({
  api_keys: v.pipe(v.array(ApiKey), v.description('This page of keys, newest first.')),
  pagination: v.pipe(
    v.strictObject({
      limit: v.pipe(v.number(), v.description('The page size asked for (or its default).')),
      next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass it as `cursor` for the next page; null on the last page.')),
    }),
    v.description('How to read the next page.'),
  ),
});
