import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeySecretItem } from '../../shared/storage/api-key-items';
import { apiKeyIdFromHash, hashApiKey } from '../../shared/auth/api-key-secrets';
import type { DomainEvent, EventType } from '../../shared/schemas/event-catalog';
import type { AuditEntry } from '../../shared/schemas/audit';
import { call, expectFailure, localDeployment, once, seed, TIMESTAMP, unique, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { domainEvent, queuedEvents } from '../support/events';
import { idTokenFor } from '../support/api';
import { runCli } from '../support/cli';
import { buildOrg, seedOrg } from '../support/org-builder';

/**
 * The audit log through HTTP (who may read it: the access matrix): its pages newest first with cursors, each
 * filter, the 400s of bad input, and, through the local event pipeline, the entry each API
 * change leaves, once. The organizations whose entries are counted exactly hold no member
 * (only an org key, whose seeding makes no event): their log is what the test put there,
 * through the consumer's handler.
 */
const { runtime, dataDir } = localDeployment();

const MINUTE = 60_000;
const logPath = (orgId: string, query = '') => `/api/v1/organization/${orgId}/audit-log${query}`;
/** A page of the log, or (a 400) the error envelope with its details. */
type AuditLogBody = {
  entries: AuditEntry[];
  pagination: { page: number; limit: number; next_cursor: string | null };
  details?: { field: string; issue: string }[];
};
const read = (orgId: string, token: string, query = ''): Promise<ApiResponse<AuditLogBody>> =>
  call(runtime.apiUrl, 'GET', logPath(orgId, query), { token });
const qs = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

/** The audit consumer's handler, loaded in this process under the local deployment's configuration. */
async function auditConsumer() {
  Object.assign(process.env, {
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
    AWS_REGION: runtime.region,
    LOG_LEVEL: 'ERROR',
  });
  return (await import('../../functions/events/record-audit-entry')).handler;
}

/** An organization with nothing in its audit log but what the test records, and an org key that reads it. */
async function quietOrg() {
  const u = unique();
  const orgId = `org_aud_${u}`;
  const key = `pk_org_aud${u}${'q'.repeat(20)}`;
  const { db } = localDeployment();
  await seed(db, { orgs: [{ id: orgId, name: `Audit ${u}` }] });
  // The reader's key is stored as the operator stored keys before they were managed: a secret
  // item alone, which authenticates and makes no api_key.created entry in the log under test.
  const keyHash = hashApiKey(key);
  const secret = {
    key_id: apiKeyIdFromHash(keyHash),
    key_hash: keyHash,
    org_id: orgId,
    scopes: ['audit:read' as const],
    created_at: new Date().toISOString(),
  };
  await db.client.send(new PutCommand({ TableName: db.tableName, Item: apiKeySecretItem(secret) }));
  return { orgId, key };
}

/** The entry the API shows for an event. */
const entryOf = (event: DomainEvent, changes: string[] = []): AuditEntry => ({
  id: event.id,
  type: event.type as EventType,
  occurred_at: event.occurred_at,
  actor: event.actor,
  resource: event.resource,
  correlation_id: event.correlation_id,
  changes,
});

// ---------------------------------------------------------------------------------------
// One quiet organization, eleven changes a minute apart, recorded through the consumer.

const T0 = Date.now() - 60 * MINUTE;
const at = (n: number) => new Date(T0 + n * MINUTE).toISOString();
const ann = { kind: 'user', id: 'usr_ann' } as const;
const bob = { kind: 'user', id: 'usr_bob' } as const;
const bot = { kind: 'api_key', id: 'key_bot' } as const;
const rec = { type: 'recording', id: 'rec_a' } as const;
const tpl = { type: 'template', id: 'tpl_a' } as const;

const history = once(async () => {
  const { orgId, key } = await quietOrg();
  const event = (
    n: number,
    type: EventType,
    resource: DomainEvent['resource'],
    actor: DomainEvent['actor'],
    data: Record<string, unknown> = {},
  ) => domainEvent({ type, org_id: orgId, resource, actor, data, occurred_at: at(n), correlation_id: `req-${n}` });
  const events = [
    event(1, 'template.created', tpl, ann, { name: 'Standup' }),
    event(2, 'template.updated', tpl, ann, { name: 'Daily', changes: ['name'] }),
    event(3, 'recording.created', rec, bot),
    event(4, 'recording.updated', rec, bob, { changes: ['title', 'tags'] }),
    event(5, 'member.joined', { type: 'member', id: 'usr_bob' }, ann),
    event(6, 'member_settings.updated', { type: 'member_settings', id: 'usr_bob' }, bob, { user_id: 'usr_bob', sections: ['profile'] }),
    event(7, 'member.updated', { type: 'member', id: 'usr_bob' }, ann, { role: 'admin', changes: ['role'] }),
    event(8, 'invite.created', { type: 'invite', id: 'inv_a' }, ann),
    event(9, 'recording.trashed', rec, ann),
    event(10, 'recording.deleted', rec, null, { reason: 'retention' }),
    event(11, 'template.deleted', tpl, bot),
  ];
  const handler = await auditConsumer();
  expect(await handler(queuedEvents(events))).toEqual({ batchItemFailures: [] });
  const entries = new Map(
    events.map((e, i) => [i + 1, entryOf(e, [[], ['name'], [], ['title', 'tags'], [], ['profile'], ['role'], [], [], [], []][i])]),
  );
  /** The entries of these changes, by their numbers. */
  const of = (...numbers: number[]) => numbers.map((n) => entries.get(n));
  return { orgId, key, of };
});

/** Every page of a listing, following next_cursor. */
async function allPages(orgId: string, token: string, params: Record<string, string>) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const res = await read(orgId, token, qs({ ...params, ...(cursor ? { cursor } : {}) }));
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return pages;
}

describe('GET /api/v1/organization/{orgId}/audit-log', () => {
  describe('callers it admits', () => {
    // Who may read the log, and what everyone else is answered, is the access matrix's
    // (test/integration/access-matrix.test.ts): here, an ID token of the lowest role it admits
    // and a key with only audit:read get a page.
    const org = once(() => seedOrg(buildOrg({ label: 'audacc', keys: { audit: { scopes: ['audit:read'] } } })));
    it.each([
      ['an admin’s ID token', (o: Awaited<ReturnType<typeof org>>) => idTokenFor(o.people.admin)],
      ['a key with audit:read only', async (o: Awaited<ReturnType<typeof org>>) => o.keys.audit],
    ] as const)('%s reads a page', async (_caller, tokenOf) => {
      const o = await org();
      const res = await read(o.org, await tokenOf(o));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['entries', 'pagination']);
    });
  });

  describe('pages', () => {
    it('lists every entry newest first, pages of limit linked by next_cursor, the last with null', async () => {
      const { orgId, key, of } = await history();
      const pages = await allPages(orgId, key, { limit: '4' });
      expect(pages.map((page) => page.entries)).toEqual([of(11, 10, 9, 8), of(7, 6, 5, 4), of(3, 2, 1)]);
      expect(pages.map((page) => ({ page: page.pagination.page, limit: page.pagination.limit }))).toEqual(
        [1, 2, 3].map((page) => ({ page, limit: 4 })),
      );
      expect(pages[2].pagination.next_cursor).toBeNull();
    });

    it('an entry is the change, who made it, in which request, and the names of what changed', async () => {
      const { orgId, key } = await history();
      const res = await read(orgId, key, qs({ resource_id: 'usr_bob' }));
      expect(res.body.entries[1]).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: 'member_settings.updated',
        occurred_at: at(6),
        actor: bob,
        resource: { type: 'member_settings', id: 'usr_bob' },
        correlation_id: 'req-6',
        changes: ['profile'],
      });
      expect(res.body.entries[1].occurred_at).toMatch(TIMESTAMP);
    });

    it('holds 20 entries unless told, and a page that ends the list has no cursor', async () => {
      const { orgId, key } = await history();
      const res = await read(orgId, key);
      expect(res.body.entries).toHaveLength(11);
      expect(res.body.pagination).toEqual({ page: 1, limit: 20, next_cursor: null });
      const exact = await read(orgId, key, qs({ limit: '11' }));
      expect(exact.body.pagination.next_cursor).toBeNull();
    });

    it('an empty log is an empty page', async () => {
      const { orgId, key } = await quietOrg();
      const res = await read(orgId, key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ entries: [], pagination: { page: 1, limit: 20, next_cursor: null } });
    });
  });

  describe('filters', () => {
    const cases: [string, Record<string, string>, number[]][] = [
      ['an exact type', { type: 'recording.updated' }, [4]],
      ['a type prefix: the family', { type: 'recording.' }, [10, 9, 4, 3]],
      ["member. is the member's events, not their settings'", { type: 'member.' }, [7, 5]],
      ['an actor (a user)', { actor_id: 'usr_ann' }, [9, 8, 7, 5, 2, 1]],
      ['an actor (an org key)', { actor_id: 'key_bot' }, [11, 3]],
      ['a resource: a member and their settings share the user id', { resource_id: 'usr_bob' }, [7, 6, 5]],
      ['since and until, both inclusive', { since: at(5), until: at(8) }, [8, 7, 6, 5]],
      ['since alone', { since: at(9) }, [11, 10, 9]],
      ['until alone', { until: at(2) }, [2, 1]],
      ['since = until: that instant', { since: at(5), until: at(5) }, [5]],
      ['an actor on a resource', { actor_id: 'usr_ann', resource_id: 'usr_bob' }, [7, 5]],
      ['a type by an actor', { type: 'template.', actor_id: 'key_bot' }, [11]],
      ['a type of a resource in a time range', { type: 'recording.', resource_id: 'rec_a', since: at(4), until: at(9) }, [9, 4]],
      ['a resource with no entries', { resource_id: 'rec_none' }, []],
    ];

    it.each(cases)('%s', async (_name, params, expected) => {
      const { orgId, key, of } = await history();
      const res = await read(orgId, key, qs(params));
      expect(res.status).toBe(200);
      expect(res.body.entries).toEqual(of(...expected));
    });

    it('pages of a filtered list follow their cursors', async () => {
      const { orgId, key, of } = await history();
      const byAnn = await allPages(orgId, key, { actor_id: 'usr_ann', limit: '4' });
      expect(byAnn.map((page) => page.entries)).toEqual([of(9, 8, 7, 5), of(2, 1)]);
      const byType = await allPages(orgId, key, { type: 'template.', limit: '2' });
      expect(byType.map((page) => page.entries)).toEqual([of(11, 2), of(1)]);
    });

    it('a time with an offset is the same instant in UTC', async () => {
      const { orgId, key, of } = await history();
      const shifted = new Date(T0 + 5 * MINUTE + 2 * 60 * MINUTE)
        .toISOString()
        .replace('Z', '+02:00')
        .replace(/\.\d{3}/, '');
      const res = await read(orgId, key, qs({ since: shifted, until: at(6) }));
      expect(res.body.entries).toEqual(of(6, 5));
    });
  });

  describe('bad input is a 400 VALIDATION_ERROR naming the parameter', () => {
    const bad: [string, Record<string, string>, string, string][] = [
      ['an unknown type', { type: 'recording.exploded' }, 'type', 'invalid_value'],
      ['a family without its dot', { type: 'recording' }, 'type', 'invalid_value'],
      ['an unknown family', { type: 'meeting.' }, 'type', 'invalid_value'],
      ['an internal event type', { type: 'recording.retention_due' }, 'type', 'invalid_value'],
      ['a since that is not a timestamp', { since: 'yesterday' }, 'since', 'format'],
      ['a since on a day that does not exist', { since: '2026-02-30T00:00:00.000Z' }, 'since', 'invalid'],
      ['an until without its time', { until: '2026-01-01' }, 'until', 'format'],
      ['since after until', { since: at(6), until: at(5) }, 'since', 'out_of_range'],
      ['a limit of 0', { limit: '0' }, 'limit', 'out_of_range'],
      ['a limit over 100', { limit: '101' }, 'limit', 'out_of_range'],
      ['a limit that is not a number', { limit: 'ten' }, 'limit', 'format'],
      ['an actor id that is not an id', { actor_id: 'usr ann' }, 'actor_id', 'format'],
      ['a resource id over 64 characters', { resource_id: 'r'.repeat(65) }, 'resource_id', 'format'],
      ['a cursor this API did not issue', { cursor: 'not-a-cursor' }, 'cursor', 'format'],
      ['an unknown parameter', { actor: 'usr_ann' }, 'actor', 'unknown'],
    ];

    it.each(bad)('%s', async (_name, params, field, issue) => {
      const { orgId, key } = await history();
      const res = await read(orgId, key, qs(params));
      expectFailure(res, 400, 'VALIDATION_ERROR');
      expect(res.body.details).toEqual([expect.objectContaining({ field, issue })]);
    });

    it('a cursor used with other filters, or in another organization, is refused', async () => {
      const { orgId, key } = await history();
      const first = await read(orgId, key, qs({ type: 'recording.', limit: '1' }));
      const cursor = first.body.pagination.next_cursor!;
      expect(cursor).toEqual(expect.any(String));
      const otherFilters: Record<string, string>[] = [
        { type: 'template.' },
        {},
        { type: 'recording.', actor_id: 'usr_ann' },
        { type: 'recording.', since: at(0) },
      ];
      for (const params of otherFilters) {
        const res = await read(orgId, key, qs({ ...params, cursor }));
        expectFailure(res, 400, 'VALIDATION_ERROR');
        expect(res.body.details).toEqual([expect.objectContaining({ field: 'cursor', issue: 'invalid_value' })]);
      }
      const elsewhere = await quietOrg();
      const res = await read(elsewhere.orgId, elsewhere.key, qs({ type: 'recording.', cursor }));
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'cursor', issue: 'invalid_value' })]);
      // The same filters (and another limit) go on from it.
      const next = await read(orgId, key, qs({ type: 'recording.', limit: '2', cursor }));
      expect(next.body.entries.map((e) => e.type)).toEqual(['recording.trashed', 'recording.updated']);
      expect(next.body.pagination.page).toBe(2);
    });
  });
});

// ---------------------------------------------------------------------------------------
// End to end: the API's changes reach the log through the local event pipeline.

describe('the audit log of API changes (through the local event pipeline)', () => {
  const org = once(() =>
    seedOrg(
      buildOrg({
        label: 'aude2e',
        keys: { audit: { scopes: ['audit:read'] }, templates: { scopes: ['templates:read', 'templates:write'] } },
      }),
    ),
  );

  /** The entries of a resource once they number `count` (or the time is up). */
  const entriesOf = async (orgId: string, token: string, resourceId: string, count: number) =>
    (
      await eventually(
        () => read(orgId, token, qs({ resource_id: resourceId })),
        (res) => res.body.entries.length >= count,
      )
    ).body.entries;

  it('a template created, changed and deleted leaves three entries, each once: who, in which request, what changed', async () => {
    const o = await org();
    const send = (method: string, path: string, token: string, body?: unknown) =>
      call(runtime.apiUrl, method, `/api/v1/organization/${o.org}/templates${path}`, {
        token,
        body,
        headers: { 'x-correlation-id': `aud-${method.toLowerCase()}-${o.id}` },
      });
    const admin = await idTokenFor(o.people.admin);
    const created = await send('POST', '', admin, { name: 'Standup', sections: [{ title: 'Done', prompt: 'What got done?' }] });
    expect(created.status).toBe(201);
    const templateId: string = created.body.id;
    expect((await send('PATCH', `/${templateId}`, o.keys.templates, { description: 'Every morning', name: 'Daily' })).status).toBe(200);
    expect((await send('DELETE', `/${templateId}`, await idTokenFor(o.people.owner))).status).toBe(200);

    const entries = await entriesOf(o.org, o.keys.audit, templateId, 3);
    expect(entries).toEqual([
      expect.objectContaining({
        type: 'template.deleted',
        actor: { kind: 'user', id: o.people.owner.id },
        correlation_id: `aud-delete-${o.id}`,
        changes: [],
      }),
      expect.objectContaining({
        type: 'template.updated',
        actor: { kind: 'api_key', id: apiKeyIdFromHash(hashApiKey(o.keys.templates)) },
        correlation_id: `aud-patch-${o.id}`,
      }),
      expect.objectContaining({
        type: 'template.created',
        actor: { kind: 'user', id: o.people.admin.id },
        correlation_id: `aud-post-${o.id}`,
        changes: [],
      }),
    ]);
    expect([...entries[1].changes].sort()).toEqual(['description', 'name']);
    for (const entry of entries)
      expect(entry).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        occurred_at: expect.stringMatching(TIMESTAMP),
        resource: { type: 'template', id: templateId },
      });
    // Still three once the pipeline has had time to deliver anything twice.
    const typed = await read(o.org, o.keys.audit, qs({ type: 'template.', resource_id: templateId }));
    expect(typed.body.entries.map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it("a member's settings change names its sections, never what was written", async () => {
    const o = await org();
    const secret = `Private note ${o.id}: prefers summaries in bullet points`;
    const res = await call(runtime.apiUrl, 'PATCH', `/api/v1/organization/${o.org}/users/${o.people.member.id}/settings`, {
      token: await idTokenFor(o.people.owner),
      // (With notifications left out, the processor cannot read the settings item's empty notifications map from the stream yet: reported.)
      body: { settings: { selected_theme: 'light' }, notifications: { highlight_time: '07:30' }, profile: { profile: secret } },
    });
    expect(res.status).toBe(200);
    const entries = await entriesOf(o.org, o.keys.audit, o.people.member.id, 2);
    const settings = entries.filter((e) => e.type === 'member_settings.updated');
    expect(settings).toEqual([
      expect.objectContaining({
        actor: { kind: 'user', id: o.people.owner.id },
        resource: { type: 'member_settings', id: o.people.member.id },
        changes: ['settings', 'notifications', 'profile'],
      }),
    ]);
    expect(JSON.stringify(entries)).not.toContain('bullet points');
  });

  it("the organization's members joining (its seeding) are in the log, one entry each", async () => {
    const o = await org();
    const res = await eventually(
      () => read(o.org, o.keys.audit, qs({ type: 'member.joined' })),
      (r) => r.body.entries.length >= 4,
    );
    expect(res.body.entries.map((e) => e.resource.id).sort()).toEqual(
      Object.values(o.people)
        .map((p) => p.id)
        .sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------

describe('cli audit list', () => {
  const cli = (...args: string[]) => runCli(['audit', 'list', ...args], { LOCAL_DATA_DIR: dataDir });
  const lines = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEntry);

  it('prints the entries newest first, one JSON line each, at most --limit', async () => {
    const { orgId, of } = await history();
    const all = await cli('--org', orgId);
    expect(all.code).toBe(0);
    expect(lines(all.stdout)).toEqual(of(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1));
    const some = await cli('--org', orgId, '--limit', '3');
    expect(lines(some.stdout)).toEqual(of(11, 10, 9));
  });

  it("takes the API's filters", async () => {
    const { orgId, of } = await history();
    const res = await cli('--org', orgId, '--type', 'recording.', '--actor', 'usr_ann', '--since', at(1), '--until', at(10));
    expect(lines(res.stdout)).toEqual(of(9));
    expect(lines((await cli('--org', orgId, '--resource', 'usr_bob')).stdout)).toEqual(of(7, 6, 5));
  });

  it('refuses bad filters with a JSON error and exit code 1, printing nothing', async () => {
    const { orgId } = await history();
    for (const args of [
      ['--type', 'recording'],
      ['--since', at(6), '--until', at(5)],
      ['--limit', '0'],
    ]) {
      const res = await cli('--org', orgId, ...args);
      expect({ code: res.code, stdout: res.stdout, error: res.json?.error }).toEqual({ code: 1, stdout: '', error: 'VALIDATION_ERROR' });
    }
  });
});
