import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntryOf, changedNames, recordAuditEntry } from '../../shared/domain/audit/record-audit-entry';
import { listAuditLog } from '../../shared/domain/audit/list-audit-log';
import type { DomainEvent, EventType } from '../../shared/schemas/event-catalog';
import { AUDIT_PAGE } from '../../shared/schemas/audit';
import { AUDIT_READ_BUDGET } from '../../shared/core/limits';
import { auditEntryItem, auditSortKey, readAuditPage, type AuditFilter } from '../../shared/storage/audit-log';
import { keys } from '../../shared/storage/keys';
import { domainEvent, queuedEvents } from '../support/events';
import { localDeployment, unique } from '../support/api';

/**
 * The audit log's consumer and reads, called in this process against the emulator's table:
 * one entry per event however often it is delivered, what an entry holds (and never holds),
 * when it expires, and what a page costs. Each test writes under an organization id of its
 * own that nothing else writes to, so its log holds exactly what the test put there.
 */
const { db, runtime } = localDeployment();
const DAY_S = 86_400;
const NOW = new Date('2026-11-20T12:00:00.000Z');
const deps = { db, retentionDays: 365 };
const reader = (retentionDays: number | null = 365) => ({ db, now: () => NOW, retentionDays });
const query = (fields: Partial<Parameters<typeof listAuditLog>[2]> = {}) => ({ limit: AUDIT_PAGE.defaultLimit, ...fields });

/** The consumer's Lambda handler, loaded in this process under the local deployment's configuration. */
async function auditConsumer() {
  Object.assign(process.env, {
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    AWS_REGION: runtime.region,
    LOG_LEVEL: 'ERROR',
  });
  return (await import('../../functions/events/record-audit-entry')).handler;
}

const at = (minutesBeforeNow: number) => new Date(NOW.getTime() - minutesBeforeNow * 60_000).toISOString();
const newOrg = () => `org_daud_${unique()}`;
const templateEvent = (orgId: string, type: EventType, overrides: Partial<DomainEvent> = {}) =>
  domainEvent({ type, org_id: orgId, resource: { type: 'template', id: 'tpl_1' }, occurred_at: at(1), ...overrides });

describe('the audit log consumer', () => {
  it('records an event once, however often it is delivered: twice in one batch, then again on a later delivery', async () => {
    const handler = await auditConsumer();
    const orgId = newOrg();
    const event = templateEvent(orgId, 'template.created', { actor: { kind: 'user', id: 'usr_ann' }, correlation_id: 'req-1' });
    expect(await handler(queuedEvents([event, event]))).toEqual({ batchItemFailures: [] });
    expect(await handler(queuedEvents([event], 2))).toEqual({ batchItemFailures: [] });
    const { entries } = await listAuditLog(reader(), orgId, query());
    expect(entries).toEqual([
      {
        id: event.id,
        type: 'template.created',
        occurred_at: event.occurred_at,
        actor: { kind: 'user', id: 'usr_ann' },
        resource: { type: 'template', id: 'tpl_1' },
        correlation_id: 'req-1',
        changes: [],
      },
    ]);
  });

  it('tells a duplicate from a new entry, and records no internal event', async () => {
    const orgId = newOrg();
    const event = templateEvent(orgId, 'template.deleted');
    expect(await recordAuditEntry(deps, event)).toBe('recorded');
    expect(await recordAuditEntry(deps, event)).toBe('duplicate');
    const due = domainEvent({ type: 'recording.retention_due', org_id: orgId, resource: { type: 'recording', id: 'rec_1' } });
    expect(await recordAuditEntry(deps, due)).toBe('ignored');
    expect((await listAuditLog(reader(), orgId, query())).entries.map((e) => e.type)).toEqual(['template.deleted']);
  });

  it('keeps an entry for the retention from when the change happened (DynamoDB TTL, epoch seconds)', async () => {
    const handler = await auditConsumer();
    const orgId = newOrg();
    const occurredAt = '2026-03-01T10:20:30.456Z';
    const event = templateEvent(orgId, 'template.created', { occurred_at: occurredAt });
    await handler(queuedEvents([event]));
    const { Item } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.auditEntry(orgId, auditSortKey({ occurred_at: occurredAt, id: event.id })) }),
    );
    // The deployment sets no AUDIT_RETENTION_DAYS: the default, 365 days.
    expect(Item?.expires_at_epoch).toBe(Math.floor(Date.parse(occurredAt) / 1000) + 365 * DAY_S);

    const other = templateEvent(orgId, 'template.updated', { occurred_at: occurredAt });
    await recordAuditEntry({ db, retentionDays: 30 }, other);
    const { Item: shorter } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: keys.auditEntry(orgId, auditSortKey({ occurred_at: occurredAt, id: other.id })) }),
    );
    expect(shorter?.expires_at_epoch).toBe(Math.floor(Date.parse(occurredAt) / 1000) + 30 * DAY_S);
  });

  it("stores the time in the API's form, so entries written with offsets still sort by time", async () => {
    const orgId = newOrg();
    const event = templateEvent(orgId, 'template.created', { occurred_at: '2026-11-20T13:00:00+02:00' });
    expect(auditEntryOf({ ...event, type: 'template.created' }).occurred_at).toBe('2026-11-20T11:00:00.000Z');
  });
});

describe('what an entry says changed', () => {
  const data = (type: EventType, fields: Record<string, unknown>) => changedNames({ type, data: fields });

  it('is the changed field names of an *.updated event', () => {
    expect(data('template.updated', { name: 'Standup', changes: ['name', 'sections'] })).toEqual(['name', 'sections']);
    expect(data('recording.updated', { changes: ['title', 'tags'] })).toEqual(['title', 'tags']);
    expect(data('member.updated', { role: 'admin', changes: ['role'] })).toEqual(['role']);
  });

  it("is the changed sections of a member's settings", () => {
    expect(data('member_settings.updated', { user_id: 'usr_1', sections: ['settings', 'profile', 'preferences'] })).toEqual([
      'settings',
      'profile',
      'preferences',
    ]);
    // A settings event's `changes`, were it to carry one, is not what the entry names.
    expect(data('member_settings.updated', { changes: ['selected_theme'] })).toEqual([]);
  });

  it('is empty for every other event, whatever its data', () => {
    expect(data('template.created', { name: 'Standup', changes: ['name'] })).toEqual([]);
    expect(data('invite.email_failed', { email: 'a@example.com', attempts: 5, error: 'SES_REFUSED' })).toEqual([]);
    expect(data('recording.updated', {})).toEqual([]);
  });

  it('never holds content: values that are not names are left out', () => {
    expect(
      data('template.updated', {
        changes: ['description', 'Keep summaries under 200 words.', 42, { name: 'x' }, 'x'.repeat(65), 'description'],
      }),
    ).toEqual(['description']);
    expect(data('recording.updated', { changes: 'title' })).toEqual([]);
  });

  it('an entry carries only the envelope fields of the audit log, never the event data', () => {
    const event = domainEvent({
      type: 'member_settings.updated',
      org_id: 'org_x',
      resource: { type: 'member_settings', id: 'usr_1' },
      actor: { kind: 'api_key', id: 'key_1' },
      data: { user_id: 'usr_1', sections: ['profile'], profile: '# secret' },
    });
    const entry = auditEntryOf({ ...event, type: 'member_settings.updated' });
    expect(Object.keys(entry).sort()).toEqual(['actor', 'changes', 'correlation_id', 'id', 'occurred_at', 'resource', 'type']);
    expect(JSON.stringify(entry)).not.toContain('secret');
  });
});

describe('reading the audit log', () => {
  it("leaves out entries past the retention, which DynamoDB TTL removes only some time later; the operators' reading (no retention) shows them", async () => {
    const orgId = newOrg();
    const old = templateEvent(orgId, 'template.created', { occurred_at: new Date(NOW.getTime() - 366 * DAY_S * 1000).toISOString() });
    const recent = templateEvent(orgId, 'template.updated', { occurred_at: at(5) });
    await recordAuditEntry(deps, old);
    await recordAuditEntry(deps, recent);
    expect((await listAuditLog(reader(), orgId, query())).entries.map((e) => e.id)).toEqual([recent.id]);
    expect((await listAuditLog(reader(), orgId, query({ until: at(60 * 24) }))).entries).toEqual([]);
    expect((await listAuditLog(reader(null), orgId, query())).entries.map((e) => e.id)).toEqual([recent.id, old.id]);
  });

  it('orders entries of the same millisecond by event id, newest first', async () => {
    const orgId = newOrg();
    const events = Array.from({ length: 4 }, () => templateEvent(orgId, 'template.updated', { occurred_at: at(3) }));
    for (const event of events) await recordAuditEntry(deps, event);
    const ids = (await listAuditLog(reader(), orgId, query())).entries.map((e) => e.id);
    expect(ids).toEqual(
      events
        .map((e) => e.id)
        .sort()
        .reverse(),
    );
  });
});

/** Writes entries straight to the table (25 a request): the cost tests need more than a consumer writes in a test's time. */
async function putEntries(orgId: string, events: DomainEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 25) {
    const batch = events.slice(i, i + 25).map((event) => ({
      PutRequest: { Item: auditEntryItem(orgId, auditEntryOf({ ...event, type: event.type as EventType }), 2_000_000_000) },
    }));
    await db.client.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: batch } }));
  }
}

describe('what a page of the audit log costs', () => {
  // 1,300 entries, newest first: 1,200 recording.updated by usr_busy on rec_busy, then (older)
  // 100 template changes by key_tpl, one template each; 1 rare invite.revoked in the middle.
  const orgId = newOrg();
  const base = NOW.getTime() - DAY_S * 1000;
  const event = (i: number, fields: Pick<DomainEvent, 'type' | 'resource' | 'actor'>) =>
    domainEvent({ org_id: orgId, occurred_at: new Date(base + i * 1000).toISOString(), ...fields });
  const templates = Array.from({ length: 100 }, (_, i) =>
    event(i, {
      type: i % 2 ? 'template.updated' : 'template.created',
      resource: { type: 'template', id: `tpl_${i}` },
      actor: { kind: 'api_key', id: 'key_tpl' },
    }),
  );
  const recordings = Array.from({ length: 1200 }, (_, i) =>
    i === 600
      ? event(100 + i, { type: 'invite.revoked', resource: { type: 'invite', id: 'inv_rare' }, actor: { kind: 'user', id: 'usr_busy' } })
      : event(100 + i, {
          type: 'recording.updated',
          resource: { type: 'recording', id: 'rec_busy' },
          actor: { kind: 'user', id: 'usr_busy' },
        }),
  );
  /** A page of 50 (the figures of docs/data-model.md); `name` says what it measures. */
  const measure = (_name: string, filter: Omit<AuditFilter, 'orgId'>, afterSortKey?: string) =>
    readAuditPage(db, { orgId, ...filter }, { limit: 50, afterSortKey });

  beforeAll(() => putEntries(orgId, [...templates, ...recordings]));

  it('without a filter expression, one Query of limit + 1 items, whatever the filters on keys', async () => {
    expect(await measure('none', {})).toMatchObject({ reads: { queries: 1, items: 51 } });
    expect(await measure('actor (GSI1)', { actorId: 'key_tpl' })).toMatchObject({ reads: { queries: 1, items: 51 } });
    expect(await measure('resource (GSI2)', { resourceId: 'rec_busy' })).toMatchObject({ reads: { queries: 1, items: 51 } });
    expect(await measure('since/until', { since: templates[10].occurred_at, until: templates[90].occurred_at })).toMatchObject({
      reads: { queries: 1, items: 51 },
    });
    const page = await measure(
      'last page of an actor',
      { actorId: 'key_tpl' },
      auditSortKey({ occurred_at: templates[30].occurred_at, id: templates[30].id }),
    );
    expect(page.entries.map((e) => e.id)).toEqual(
      templates
        .slice(0, 30)
        .reverse()
        .map((e) => e.id),
    );
    expect(page).toMatchObject({ nextAfter: undefined, reads: { queries: 1, items: 30 } });
  });

  it('with a type that most entries have, about the page', async () => {
    const page = await measure('type recording.updated', { type: 'recording.updated' });
    expect(page.entries).toHaveLength(50);
    expect(page.reads).toEqual({ queries: 1, items: 102 });
  });

  it('with a type that few entries have, at most AUDIT_READ_BUDGET items in at most 10 Queries; a page cut short has a cursor to read on', async () => {
    const first = await measure('type template. (first page)', { type: 'template.' });
    expect(first.entries).toEqual([]);
    expect(first.reads.items).toBe(AUDIT_READ_BUDGET);
    expect(first.reads.queries).toBeLessThanOrEqual(10);
    expect(first.nextAfter).toBeDefined();
    const second = await measure('type template. (second page)', { type: 'template.' }, first.nextAfter);
    // The 200 recording entries left, then the 50 newest template entries and one more to know that more follow.
    expect(second.entries.map((e) => e.id)).toEqual(
      templates
        .slice(50)
        .reverse()
        .map((e) => e.id),
    );
    expect(second.reads.items).toBeLessThanOrEqual(200 + 51 + 100);
    expect(second.nextAfter).toBe(auditSortKey(templates[50]));

    const rare = await measure('type invite.revoked', { type: 'invite.revoked' });
    expect(rare.entries.map((e) => e.type)).toEqual(['invite.revoked']);
    expect(rare.reads.items).toBe(AUDIT_READ_BUDGET);
  });

  it('with actor and resource together, the resource is the key and the actor a filter expression', async () => {
    const page = await measure('actor + resource', { resourceId: 'tpl_7', actorId: 'key_tpl' });
    expect(page.entries.map((e) => e.id)).toEqual([templates[7].id]);
    expect(page.reads).toEqual({ queries: 1, items: 1 });
    const none = await measure('actor + resource, no match', { resourceId: 'rec_busy', actorId: 'key_tpl' });
    expect(none.entries).toEqual([]);
    expect(none.reads.items).toBe(AUDIT_READ_BUDGET);
  });
});
