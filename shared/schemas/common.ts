import * as v from 'valibot';
import { MEMBER_STATUSES, ROLES, SCOPES } from '../core/access';

/**
 * A count with thousands separators, as `toLocaleString('en-US')` writes it. Schema texts are
 * built at cold start, and the first `toLocaleString` there loads ICU's number formatting
 * (about 7 ms of every function's module load).
 */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The longest value a pipe's regex or check already admits, declared for the OpenAPI document
 * (JSON Schema `maxLength`, in code points), where the converter cannot read it from the check.
 * A metadata action validates nothing: the bound stays the check's, stated once beside it.
 */
export const admitsAtMost = (maxLength: number) => v.metadata<string, { maxLength: number }>({ maxLength });

/** The longest id: the size budgets (docs/data-model.md, "Size budgets") count every id at this length. */
export const ID_MAX_LENGTH = 64;
/** Every id of the API (organizations, users, recordings, templates, invites, keys, tags): the format fixtures may use too. */
export const ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${ID_MAX_LENGTH}}$`);
// The pattern is the one check (a long id is one `format` problem, not two), the metadata shows its length.
export const Id = v.pipe(
  v.string('must be a string'),
  v.regex(ID_PATTERN, `must be 1-${ID_MAX_LENGTH} letters, digits, _ or -`),
  admitsAtMost(ID_MAX_LENGTH),
);
/** RFC 5321's longest forward path, less its angle brackets. */
export const EMAIL_MAX_LENGTH = 254;
export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.email('must be an email address'),
  v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`),
);
/**
 * The longest text of an `include` list (Get recording, Get member settings): every name it may
 * hold, each once, fits in 50 characters; this leaves room for blanks and repeats while bounding
 * what the split reads.
 */
export const INCLUDE_MAX_LENGTH = 200;
export const DisplayName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200));
export const Timezone = v.pipe(
  v.string(),
  v.check((zone) => isTimeZone(zone), 'must be an IANA time zone such as Europe/Paris'),
);
/** A new user's time zone until they set one. */
export const DEFAULT_TIMEZONE = 'UTC';
export const RoleName = v.picklist(ROLES, `must be one of ${ROLES.join(', ')}`);
export const MemberStatusName = v.picklist(MEMBER_STATUSES, `must be one of ${MEMBER_STATUSES.join(', ')}`);
export const ScopeName = v.picklist(SCOPES, `must be one of ${SCOPES.join(', ')}`);
/**
 * The longest text valibot's ISO timestamp pattern matches: nanoseconds and a spaced offset
 * (`2026-01-01T10:00:00.123456789 +02:00`).
 */
const ISO_TIMESTAMP_MAX_LENGTH = '0000-01-01T00:00:00.000000000 +00:00'.length;
export const Timestamp = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp'), admitsAtMost(ISO_TIMESTAMP_MAX_LENGTH));
export const HexColor = v.pipe(v.string(), v.hexColor('must be a hex colour such as #1f77b4'));

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The alternatives of each `oneOfByShape` schema, for the OpenAPI document (a lazy schema shows only one). */
export const SHAPE_ALTERNATIVES = new WeakMap<v.GenericSchema, readonly v.GenericSchema[]>();

/**
 * A value that takes one of several forms, chosen by its shape (the keys it has) rather than a
 * discriminator value, so each form reports its own problems instead of a union's summary.
 */
export function oneOfByShape<const F extends Record<string, v.GenericSchema>>(pick: (input: unknown) => keyof F, forms: F) {
  const schema = v.lazy((input: unknown) => forms[pick(input)]);
  SHAPE_ALTERNATIVES.set(schema, Object.values(forms));
  return schema;
}

/**
 * Whether free-form JSON (preference metadata) can be stored as a DynamoDB map as it is:
 * DynamoDB refuses empty map keys and numbers under 1e-130 in magnitude, and the SDK
 * numbers beyond Number.MAX_SAFE_INTEGER, all of which JSON allows. Walks without recursion; the request boundary has already bounded the depth.
 */
export function isStorableDocument(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'number') {
      // Beyond 2^53 a JSON number is no longer the integer it was written as, and the SDK's marshaller refuses it.
      const size = Math.abs(current);
      if (size !== 0 && (size < 1e-130 || size > Number.MAX_SAFE_INTEGER)) return false;
    } else if (Array.isArray(current)) {
      pending.push(...(current as unknown[]));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (key === '') return false;
        pending.push(item);
      }
    }
  }
  return true;
}

/** A UTC calendar day, YYYY-MM-DD, that exists. */
export function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

// The check reads the form too: the metadata only shows it (a day is ten characters).
export const Day = v.pipe(
  v.string(),
  v.check(isCalendarDay, 'must be a calendar day YYYY-MM-DD'),
  v.metadata<string, { format: string; maxLength: number }>({ format: 'date', maxLength: 'YYYY-MM-DD'.length }),
);
