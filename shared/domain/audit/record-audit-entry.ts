import { isPublicEvent, type DomainEvent, type EventType } from '../../schemas/event-catalog';
import type { AuditEntry } from '../../schemas/audit';
import { putAuditEntryOnce } from '../../storage/audit-log';
import type { TableContext } from '../../storage/dynamo';

/** What the audit log consumer needs: the table, and how long entries are kept (config().events.auditRetentionDays). */
export interface AuditRecorderDeps {
  db: TableContext;
  retentionDays: number;
}

/** What a name in `changes` may look like: a field or section name. Anything else is not a name, and might be content. */
const CHANGE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The names of what an event changed: `data.changes` of an `*.updated` event, `data.sections`
 * of `member_settings.updated`, nothing for the others. Only strings shaped like field names
 * are kept, so no value can reach the log even if an event carried one by mistake.
 */
export function changedNames(event: Pick<DomainEvent, 'type' | 'data'>): string[] {
  const source =
    event.type === 'member_settings.updated' ? event.data.sections : event.type.endsWith('.updated') ? event.data.changes : undefined;
  if (!Array.isArray(source)) return [];
  return [...new Set(source.filter((name): name is string => typeof name === 'string' && CHANGE_NAME.test(name)))];
}

/** The audit entry of a public event: who, what, when, under which request, and the names of what changed; never data content. */
export function auditEntryOf(event: DomainEvent & { type: EventType }): AuditEntry {
  return {
    id: event.id,
    type: event.type,
    // The API's one timestamp form, so entries sort by time as text.
    occurred_at: new Date(event.occurred_at).toISOString(),
    actor: event.actor ? { kind: event.actor.kind, id: event.actor.id } : null,
    resource: { type: event.resource.type, id: event.resource.id },
    correlation_id: event.correlation_id,
    changes: changedNames(event),
    ...erasureOf(event),
  };
}

/** The erasure a `user.erased` entry keeps: its id and counts (numbers only), what remains of the person. */
function erasureOf(event: Pick<DomainEvent, 'type' | 'data'>): Pick<AuditEntry, 'erasure'> {
  if (event.type !== 'user.erased' || typeof event.data.erasure_id !== 'string') return {};
  const raw = typeof event.data.counts === 'object' && event.data.counts !== null ? (event.data.counts as Record<string, unknown>) : {};
  const counts = Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, number] => CHANGE_NAME.test(entry[0]) && typeof entry[1] === 'number'),
  );
  return { erasure: { erasure_id: event.data.erasure_id, counts } };
}

/** When an entry leaves the log (epoch seconds, the table's TTL): `retentionDays` after the change. */
export function auditExpiry(occurredAt: string, retentionDays: number): number {
  return Math.floor(Date.parse(occurredAt) / 1000) + retentionDays * 86_400;
}

/**
 * Records an event in its organization's audit log, exactly once: a redelivered event (same
 * id, same time) finds its entry written and changes nothing. Internal events are not
 * organizations' to see and are not recorded.
 */
export async function recordAuditEntry(deps: AuditRecorderDeps, event: DomainEvent): Promise<'recorded' | 'duplicate' | 'ignored'> {
  if (!isPublicEvent(event)) return 'ignored';
  const entry = auditEntryOf(event);
  const written = await putAuditEntryOnce(deps.db, event.org_id, entry, auditExpiry(entry.occurred_at, deps.retentionDays));
  return written ? 'recorded' : 'duplicate';
}
