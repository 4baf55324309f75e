import { AUDIT_READ_BUDGET } from '../core/limits';
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ACTOR_KINDS, EVENT_TYPES, RESOURCE_TYPES } from '../schemas/event-catalog';
import type { AuditEntry } from '../schemas/audit';
import type { TableContext } from './dynamo';
import { itemFields, StoredItemError } from './item-fields';
import { keys } from './keys';
import { TABLE } from './table-definition';
import { isConditionFailure } from './transactions';

/**
 * The audit log's items: one per public event, under the organization's audit partition,
 * sorted by `<occurred_at>#<event id>`; GSI1 holds the same entries by actor, GSI2 by
 * resource. Each entry expires by TTL at the end of the retention.
 */

/** The sort key of an entry in every listing: when, then the event id (unique, so equal times keep an order). */
export function auditSortKey(entry: Pick<AuditEntry, 'occurred_at' | 'id'>): string {
  return `${entry.occurred_at}#${entry.id}`;
}

/** What a sort key of the audit log looks like (a cursor that holds anything else was not issued by the API). */
export const AUDIT_SORT_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#evt_[0-9a-f]{32}$/;

/** The item of an entry: the entry's fields, its keys in the three listings (no actor index without an actor), and its expiry. */
export function auditEntryItem(orgId: string, entry: AuditEntry, expiresAtEpoch: number) {
  const sortKey = auditSortKey(entry);
  return {
    ...keys.auditEntry(orgId, sortKey),
    ...(entry.actor ? keys.auditByActorIndex(orgId, entry.actor.id, sortKey) : {}),
    ...keys.auditByResourceIndex(orgId, entry.resource.id, sortKey),
    org_id: orgId,
    ...entry,
    [TABLE.ttlAttribute]: expiresAtEpoch,
  };
}

/** Maps a stored audit entry (StoredItemError when it lacks a field it needs). */
export function auditEntryFromItem(item: Record<string, unknown>): AuditEntry {
  const fields = itemFields(item, 'audit entry');
  const part = (name: 'actor' | 'resource') => itemFields({ ...fields.map(name), PK: item.PK, SK: item.SK }, `audit entry ${name}`);
  const changes = fields.list('changes');
  if (!changes.every((name): name is string => typeof name === 'string'))
    throw new StoredItemError(`Stored audit entry ${String(item.PK)}|${String(item.SK)}: changes is not a list of strings`);
  return {
    id: fields.string('id'),
    type: fields.oneOf('type', EVENT_TYPES),
    occurred_at: fields.string('occurred_at'),
    actor:
      item.actor === null || item.actor === undefined
        ? null
        : { kind: part('actor').oneOf('kind', ACTOR_KINDS), id: part('actor').string('id') },
    resource: { type: part('resource').oneOf('type', RESOURCE_TYPES), id: part('resource').string('id') },
    correlation_id: fields.nullableString('correlation_id'),
    changes,
    ...(item.erasure === undefined ? {} : { erasure: erasureFromItem(item) }),
  };
}

function erasureFromItem(item: Record<string, unknown>): NonNullable<AuditEntry['erasure']> {
  const fields = itemFields({ ...(item.erasure as Record<string, unknown>), PK: item.PK, SK: item.SK }, 'audit entry erasure');
  const counts = fields.map('counts');
  if (!Object.values(counts).every((count) => typeof count === 'number'))
    throw new StoredItemError(`Stored audit entry ${String(item.PK)}|${String(item.SK)}: erasure counts are not numbers`);
  return { erasure_id: fields.string('erasure_id'), counts: counts as Record<string, number> };
}

/**
 * Writes an entry once: the put is conditioned on the entry's key being new, and the key is
 * the event's (its time and id, both fixed for a change), so a redelivered event finds its
 * entry there. Returns false for such a duplicate, which is not an error.
 */
export async function putAuditEntryOnce(db: TableContext, orgId: string, entry: AuditEntry, expiresAtEpoch: number): Promise<boolean> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: auditEntryItem(orgId, entry, expiresAtEpoch),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Which entries a page of the audit log asks for. */
export interface AuditFilter {
  orgId: string;
  /** An exact event type, or a prefix ending with a dot (`recording.`). */
  type?: string;
  actorId?: string;
  resourceId?: string;
  /** Inclusive bounds on occurred_at (ISO timestamps in the API's form). */
  since?: string;
  until?: string;
}

/** The smallest Query of a filtered page: the filter drops an unknown share, so ask for a margin. */
const FILTERED_QUERY_MIN = 100;

/** One page of the audit log, and where the next starts. */
export interface AuditPage {
  entries: AuditEntry[];
  /** The sort key to continue strictly below; undefined when nothing older matches. */
  nextAfter: string | undefined;
  /** What the page cost: Query requests and items read (ScannedCount, before the filter expression). */
  reads: { queries: number; items: number };
}

/**
 * The query of a filter, newest first. Each filter that can be is a key condition:
 * resource → GSI2, else actor → GSI1, else the organization's partition; since/until bound
 * the sort key. What remains (the type; the actor when the resource chose the index) is a
 * filter expression, whose reads the page bounds (AUDIT_READ_BUDGET).
 */
function auditQuery(
  filter: AuditFilter,
  afterSortKey?: string,
): { input: Omit<QueryCommandInput, 'TableName' | 'Limit'>; filtered: boolean } {
  const { orgId } = filter;
  const log = keys.auditLog(orgId).PK;
  const source = filter.resourceId
    ? { index: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK', partition: keys.auditByResourceIndex(orgId, filter.resourceId).GSI2PK }
    : filter.actorId
      ? { index: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK', partition: keys.auditByActorIndex(orgId, filter.actorId).GSI1PK }
      : { index: undefined, pk: 'PK', sk: 'SK', partition: log };

  const names: Record<string, string> = { '#pk': source.pk, ...(filter.since || filter.until ? { '#sk': source.sk } : {}) };
  const values: Record<string, unknown> = { ':pk': source.partition };
  let condition = '#pk = :pk';
  // The upper bound takes in every entry of the `until` millisecond ('~' sorts after the event ids).
  const lower = filter.since;
  const upper = filter.until ? `${filter.until}#~` : undefined;
  if (lower && upper) {
    condition += ' AND #sk BETWEEN :lower AND :upper';
    Object.assign(values, { ':lower': lower, ':upper': upper });
  } else if (lower) {
    condition += ' AND #sk >= :lower';
    values[':lower'] = lower;
  } else if (upper) {
    condition += ' AND #sk <= :upper';
    values[':upper'] = upper;
  }

  const filters: string[] = [];
  if (filter.resourceId && filter.actorId) {
    filters.push('#actor.#actorId = :actor');
    Object.assign(names, { '#actor': 'actor', '#actorId': 'id' });
    values[':actor'] = filter.actorId;
  }
  if (filter.type) {
    names['#type'] = 'type';
    values[':type'] = filter.type;
    filters.push(filter.type.endsWith('.') ? 'begins_with(#type, :type)' : '#type = :type');
  }

  // Continuing strictly below the cursor's entry: its key in the index read (every listing shares the sort key).
  const startKey = afterSortKey && {
    ...keys.auditEntry(orgId, afterSortKey),
    ...(source.index ? { [source.pk]: source.partition, [source.sk]: afterSortKey } : {}),
  };
  return {
    input: {
      ...(source.index ? { IndexName: source.index } : {}),
      KeyConditionExpression: condition,
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    },
    filtered: filters.length > 0,
  };
}

/**
 * One page of the audit log, newest first, strictly older than `afterSortKey` when given.
 * Without a filter expression it reads `limit + 1` items in one Query (the one more says
 * whether a next page exists). With one it reads until the page is full or AUDIT_READ_BUDGET
 * items were read, in Queries of at least FILTERED_QUERY_MIN items (so at most 10); a page cut
 * by the budget may hold fewer than `limit` entries, even none, and still have a next cursor.
 */
export async function readAuditPage(
  db: TableContext,
  filter: AuditFilter,
  { limit, afterSortKey }: { limit: number; afterSortKey?: string },
): Promise<AuditPage> {
  const { input, filtered } = auditQuery(filter, afterSortKey);
  const found: AuditEntry[] = [];
  const reads = { queries: 0, items: 0 };
  let startKey = input.ExclusiveStartKey;
  for (;;) {
    const wanted = limit + 1 - found.length;
    const querySize = filtered ? Math.min(AUDIT_READ_BUDGET - reads.items, Math.max(FILTERED_QUERY_MIN, 2 * wanted)) : wanted;
    const page = await db.client.send(
      new QueryCommand({ ...input, TableName: db.tableName, Limit: querySize, ExclusiveStartKey: startKey }),
    );
    reads.queries++;
    reads.items += page.ScannedCount ?? page.Items?.length ?? 0;
    found.push(...(page.Items ?? []).map(auditEntryFromItem));
    startKey = page.LastEvaluatedKey;
    if (found.length > limit) {
      const entries = found.slice(0, limit);
      return { entries, nextAfter: auditSortKey(entries[limit - 1]), reads };
    }
    if (!startKey) return { entries: found, nextAfter: undefined, reads };
    if (filtered && reads.items >= AUDIT_READ_BUDGET) {
      // Out of budget: the next page reads on from the last item read, whether it matched or not.
      // (An index's LastEvaluatedKey holds the table's keys too, and every listing shares the table's sort key.)
      const lastRead: unknown = startKey.SK;
      if (typeof lastRead !== 'string') throw new Error('audit log: a LastEvaluatedKey without SK');
      return { entries: found, nextAfter: lastRead, reads };
    }
  }
}
