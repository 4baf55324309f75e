import * as v from 'valibot';
import { integerParam } from './validation';
import { ACTOR_KINDS, EVENT_TYPES, RESOURCE_TYPES } from './event-catalog';
import { formatCount, Id, Timestamp } from './common';
import { isCalendarDay } from './recordings';
import { AUDIT_READ_BUDGET } from '../core/limits';

/**
 * The audit log's request and response shapes: the one place its rules, types and OpenAPI
 * documentation come from.
 */

/** The type prefixes a `type` filter accepts besides the exact types: each event family, `recording.` etc. */
export const AUDIT_TYPE_PREFIXES = [...new Set(EVENT_TYPES.map((type) => `${type.slice(0, type.indexOf('.'))}.`))];

/** What `type` may be: an event type, or a family's prefix ending with a dot. */
export const AUDIT_TYPE_FILTERS = [...EVENT_TYPES, ...AUDIT_TYPE_PREFIXES] as const;

/** The page size of the audit log: the recordings list's (default 20, at most 100). */
export const AUDIT_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

/**
 * An ISO 8601 timestamp, normalized to the API's own form (UTC, milliseconds) so that it
 * compares with stored times as text: `2026-01-01T10:00+02:00` → `2026-01-01T08:00:00.000Z`.
 */
const Instant = v.pipe(
  Timestamp,
  // The pattern lets through days that do not exist (Date would roll 02-30 over to March) and forms Date cannot read.
  // (Judged only when the pattern matched, so a malformed value gets one problem, not two.)
  v.check(
    (text) => !v.ISO_TIMESTAMP_REGEX.test(text) || (isCalendarDay(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))),
    'must be an ISO 8601 timestamp',
  ),
  v.transform((text) => new Date(text).toISOString()),
);

/** Query of List audit log. */
export const ListAuditLogQuery = v.strictObject({
  type: v.optional(
    v.pipe(
      v.picklist(
        AUDIT_TYPE_FILTERS,
        `must be an event type such as recording.updated, or a prefix ending with a dot: ${AUDIT_TYPE_PREFIXES.join(', ')}`,
      ),
      v.description('Only entries of this event type, or of every type of a family given by its prefix ending with a dot (`recording.`).'),
    ),
  ),
  actor_id: v.optional(v.pipe(Id, v.description('Only changes made by this member (user id) or organization API key (key id).'))),
  resource_id: v.optional(
    v.pipe(
      Id,
      v.description('Only changes of this resource (a recording, template or invite id; a user id for a member and their settings).'),
    ),
  ),
  // The description sits outside the optional: in the document's input form a pipe ends at its transform.
  since: v.pipe(v.optional(Instant), v.description('Only changes at or after this time (ISO 8601, any offset: `2026-01-01T10:00+02:00`).')),
  until: v.pipe(v.optional(Instant), v.description('Only changes at or before this time (ISO 8601, any offset); not before `since`.')),
  limit: integerParam({
    defaultValue: AUDIT_PAGE.defaultLimit,
    min: 1,
    max: AUDIT_PAGE.maxLimit,
    description: 'Entries per page (a page filtered by `type` may hold fewer: see `cursor`).',
  }),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(1000),
      v.description(
        `The previous page's \`next_cursor\`, with the same filters. A page filtered by \`type\` (or by both \`actor_id\` and \`resource_id\`) reads at most ${formatCount(AUDIT_READ_BUDGET)} entries: it may then hold fewer than \`limit\`, even none, and still have a \`next_cursor\`.`,
      ),
    ),
  ),
});
export type ListAuditLogQuery = v.InferOutput<typeof ListAuditLogQuery>;

/**
 * One entry of an organization's audit log: one committed change, who made it and under
 * which request, and the names of what changed (never the content).
 */
export const AuditEntry = v.pipe(
  v.strictObject({
    /** The event's id (`evt_…`): one entry per committed change. */
    id: v.pipe(v.string(), v.description("The event's id (`evt_…`): one entry per committed change.")),
    type: v.pipe(v.picklist(EVENT_TYPES), v.description('What happened (docs/events.md).')),
    occurred_at: v.pipe(v.string(), v.description('When the change was committed (ISO 8601 UTC, with milliseconds).')),
    /**
     * The member (`user`, by user id) or organization API key (`api_key`, by key id) that made the change;
     * null for the service itself (e.g. the trash's retention).
     */
    actor: v.pipe(
      v.nullable(
        v.strictObject({
          kind: v.pipe(
            v.picklist(ACTOR_KINDS),
            v.description('`user`: a member (by ID token or personal key); `api_key`: an organization API key.'),
          ),
          id: v.pipe(v.string(), v.description('The user id, or the key id.')),
        }),
      ),
      v.description("Who made the change; null for the service itself (such as the trash's retention)."),
    ),
    resource: v.pipe(
      v.strictObject({
        type: v.pipe(v.picklist(RESOURCE_TYPES), v.description('The kind of resource.')),
        id: v.pipe(v.string(), v.description("The resource's id (a user id for a member and their settings).")),
      }),
      v.description('What changed.'),
    ),
    /** The x-correlation-id of the request that made the change. */
    correlation_id: v.pipe(
      v.nullable(v.string()),
      v.description('The `x-correlation-id` of the request that made the change; null when no request did.'),
    ),
    /** Names of the changed fields (`*.updated`), or of the changed sections (`member_settings.updated`); empty otherwise. */
    changes: v.pipe(
      v.array(v.string()),
      v.description(
        'The names of the changed fields (`*.updated`) or sections (`member_settings.updated`), never their content; empty otherwise.',
      ),
    ),
    /** `user.erased` only: which erasure, and what it erased (ids and counts, never an email or a name). */
    erasure: v.pipe(
      v.optional(
        v.strictObject({
          erasure_id: v.pipe(v.string(), v.description('The erasure (`GET …/users/{userId}/erasures/{erasureId}`).')),
          counts: v.pipe(v.record(v.string(), v.number()), v.description('How many of each kind of item it erased or rewrote.')),
        }),
      ),
      v.description('`user.erased` only: the erasure and its counts (ids and numbers; the person is the resource, by user id).'),
    ),
  }),
  v.description(
    "One entry of an organization's audit log: one committed change, who made it under which request, and the names of what changed.",
  ),
);
export type AuditEntry = v.InferOutput<typeof AuditEntry>;

/** A page of the audit log, newest first; `next_cursor` is null on the last page. */
export const AuditLogResponse = v.strictObject({
  entries: v.pipe(v.array(AuditEntry), v.description('This page of entries, newest first.')),
  pagination: v.pipe(
    v.strictObject({
      page: v.pipe(v.number(), v.description('This page, 1-based (counted along the cursors).')),
      limit: v.pipe(v.number(), v.description('The page size asked for (or its default).')),
      next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass it as `cursor` for the next page; null on the last page.')),
    }),
    v.description('How to read the next page.'),
  ),
});
