import * as v from 'valibot';
import { listAuditLog } from '../../shared/domain/audit/list-audit-log';
import { AUDIT_PAGE, ListAuditLogQuery } from '../../shared/schemas/audit';
import { Id } from '../../shared/schemas/common';
import { flag, type CommandSpec } from './command-line';
import type { CliTarget } from './target';

const now = () => new Date();
/** `audit list` prints at most this many entries unless told, and never more than the maximum. */
const AUDIT_LIST_DEFAULT = 100;
const AUDIT_LIST_MAX = 10_000;

/** The audit log, read from the table (`audit list`). */
export const AUDIT_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'audit list': {
    summary: "print an organization's audit log, newest first, one JSON entry a line",
    notes: 'Reads the table directly, so it also shows entries past the retention that DynamoDB TTL has not removed yet.',
    flags: {
      org: { placeholder: 'O', required: true, description: 'the organization id' },
      type: { placeholder: 'T', description: 'an event type (template.updated) or a prefix ending with a dot (template.)' },
      actor: { placeholder: 'A', description: 'only changes by this user id or API key id' },
      resource: { placeholder: 'R', description: 'only changes of this resource id' },
      since: { placeholder: 'S', description: 'only changes at or after this ISO 8601 time' },
      until: { placeholder: 'U', description: 'only changes at or before this ISO 8601 time' },
      limit: {
        placeholder: 'N',
        description: `at most this many entries (default: ${AUDIT_LIST_DEFAULT}, at most ${AUDIT_LIST_MAX.toLocaleString('en-US')})`,
      },
    },
    run: async (flags, { db }) => {
      const entry = ListAuditLogQuery.entries;
      const orgId = flag(Id, flags.org, 'org');
      const filters = {
        type: flag(entry.type, flags.type, 'type'),
        actor_id: flag(entry.actor_id, flags.actor, 'actor'),
        resource_id: flag(entry.resource_id, flags.resource, 'resource'),
        since: flag(entry.since, flags.since, 'since'),
        until: flag(entry.until, flags.until, 'until'),
      };
      const limit = flag(
        v.optional(
          v.pipe(
            v.string(),
            v.regex(/^\d{1,9}$/, 'must be a whole number'),
            v.transform(Number),
            v.minValue(1),
            v.maxValue(AUDIT_LIST_MAX),
          ),
          String(AUDIT_LIST_DEFAULT),
        ),
        flags.limit,
        'limit',
      );
      const read = (cursor: string | undefined, wanted: number) =>
        listAuditLog({ db, now, retentionDays: null }, orgId, { ...filters, limit: Math.min(wanted, AUDIT_PAGE.maxLimit), cursor });
      // Page by page, each printed as it comes (a refusal, such as since after until, comes before any line).
      let page = await read(undefined, limit);
      let printed = 0;
      for (;;) {
        for (const entry of page.entries) process.stdout.write(`${JSON.stringify(entry)}\n`);
        printed += page.entries.length;
        if (!page.pagination.next_cursor || printed >= limit) return undefined;
        page = await read(page.pagination.next_cursor, limit - printed);
      }
    },
  },
};
