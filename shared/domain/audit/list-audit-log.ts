import { ValidationError } from '../../core/errors';
import { keysetCursor, numberedPosition, type NumberedPosition } from '../../core/keyset-cursor';
import type { AuditEntry, ListAuditLogQuery } from '../../schemas/audit';
import { AUDIT_SORT_KEY, readAuditPage, type AuditFilter } from '../../storage/audit-log';
import type { TableContext } from '../../storage/dynamo';

/** The audit log's cursor: bound to the organization and every filter. */
export const auditLogCursor = keysetCursor<NumberedPosition, AuditFilter>({
  bindsTo: ({ orgId, type, actorId, resourceId, since, until }) => ['audit', orgId, type, actorId, resourceId, since, until],
  write: numberedPosition.write,
  read(fields) {
    const position = numberedPosition.read(fields);
    return position && AUDIT_SORT_KEY.test(position.after) ? position : undefined;
  },
  // A page ends on an entry inside the list's time bounds; a key outside them was not issued for it.
  fits: ({ after }, { since, until }) => !(since && after < since) && !(until && after > `${until}#~`),
});

/** What reading the audit log needs: the table, the clock, and the retention (entries older are gone, or about to be). */
export interface AuditLogDeps {
  db: TableContext;
  now: () => Date;
  /** config().events.auditRetentionDays; null shows whatever the table still holds (the operators' CLI). */
  retentionDays: number | null;
}

export interface AuditLogPage {
  entries: AuditEntry[];
  pagination: { page: number; limit: number; next_cursor: string | null };
}

/**
 * A page of an organization's audit log, newest first, by keyset cursor. Every filter but
 * the type is a key condition (docs/data-model.md gives the costs); entries past the
 * retention are left out by the same key condition, even before DynamoDB's TTL (which can
 * take days) has removed them.
 */
export async function listAuditLog(deps: AuditLogDeps, orgId: string, query: ListAuditLogQuery): Promise<AuditLogPage> {
  if (query.since && query.until && query.since > query.until) throw ValidationError.field('since', 'out_of_range', 'is after until');
  const filter: AuditFilter = {
    orgId,
    type: query.type,
    actorId: query.actor_id,
    resourceId: query.resource_id,
    since: query.since,
    until: query.until,
  };
  const position = query.cursor ? auditLogCursor.decode(query.cursor, filter) : { after: undefined, page: 1 };
  const limit = query.limit;
  const empty: AuditLogPage = { entries: [], pagination: { page: position.page, limit, next_cursor: null } };

  const retainedSince =
    deps.retentionDays === null ? undefined : new Date(deps.now().getTime() - deps.retentionDays * 86_400_000).toISOString();
  const since = filter.since && (!retainedSince || filter.since > retainedSince) ? filter.since : retainedSince;
  if (since && ((filter.until && filter.until < since) || (position.after && position.after < since))) return empty;

  const page = await readAuditPage(deps.db, { ...filter, since }, { limit, afterSortKey: position.after });
  return {
    entries: page.entries,
    pagination: {
      page: position.page,
      limit,
      next_cursor: page.nextAfter ? auditLogCursor.encode({ after: page.nextAfter, page: position.page + 1 }, filter) : null,
    },
  };
}
