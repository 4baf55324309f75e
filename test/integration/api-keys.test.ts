import type { MemberCaller } from '../../shared/auth/policy';
import { createApiKey } from '../../shared/domain/api-keys/create-api-key';
import type { AuditEntry } from '../../shared/schemas/audit';
import { call, expectFailure, idTokenFor, localDeployment, TIMESTAMP, type ApiResponse } from '../support/api';
import { eventually } from '../support/eventually';
import { buildOrg, seedOrg, type Person } from '../support/org-builder';

/**
 * API keys managed through the API, end to end (local API, authorizer, handlers, DynamoDB
 * Local, the event pipeline): who may create, see, rotate and revoke which keys, that a key's
 * secret works exactly while it should (created, rotated with and without a grace period,
 * revoked, expired, its member removed), `last_used_at`, and the audit log. The local
 * deployment caches no authorizer answer, so a revocation shows on the next request.
 */
const { runtime, db } = localDeployment();
const HOUR_MS = 3_600_000;

const KEY_ID = /^key_[0-9a-f]{20}$/;

function keysOrg(label: string) {
  return seedOrg(buildOrg({ label, keys: { audit: { scopes: ['audit:read'] } } }));
}
type KeysOrg = Awaited<ReturnType<typeof keysOrg>>;

/** The key routes of an organization, as one signed-in person. */
async function keysApi(o: KeysOrg, person: Person) {
  const token = await idTokenFor(person);
  const base = `/api/v1/organization/${o.org}/api-keys`;
  const send = (method: string, path: string, body?: unknown) => call(runtime.apiUrl, method, `${base}${path}`, { token, body });
  return {
    token,
    create: (body: unknown) => send('POST', '', body),
    list: (query = '') => send('GET', query ? `?${query}` : ''),
    get: (id: string) => send('GET', `/${id}`),
    rotate: (id: string, body?: unknown) => send('POST', `/${id}/rotate`, body),
    revoke: (id: string) => send('DELETE', `/${id}`),
  };
}

/** Whether a secret is accepted: a call only its scopes allow (recordings:read on the public list). */
const works = async (secret: string) =>
  (await call(runtime.apiUrl, 'GET', '/api/v1/public/recordings?limit=1', { token: secret })).status === 200;

const personal = (name = 'Laptop') => ({ kind: 'personal', name, scopes: ['recordings:read'] });
const orgKey = (name = 'CRM sync') => ({ kind: 'org', name, scopes: ['recordings:read'] });

describe('creating keys', () => {
  let o: KeysOrg;
  beforeAll(async () => {
    o = await keysOrg('keys_create');
  });

  it('an admin creates an organization key: the secret is in the answer only, it works at once, and the key shows without it', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = await admin.create({ ...orgKey(), expires_at: '2099-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(KEY_ID),
      kind: 'org',
      name: 'CRM sync',
      prefix: created.body.secret.slice(0, 'pk_org_'.length + 6),
      scopes: ['recordings:read'],
      user_id: null,
      status: 'active',
      created_at: expect.stringMatching(TIMESTAMP),
      created_by: o.people.admin.id,
      last_used_at: null,
      expires_at: '2099-01-01T00:00:00.000Z',
      revoked_at: null,
      rotated_at: null,
      rate_limit: null,
      secret: expect.stringMatching(/^pk_org_[0-9a-f]{48}$/),
    });
    expect(await works(created.body.secret)).toBe(true);
    const read = await admin.get(created.body.id);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(read.body).toEqual({ ...withoutSecret, last_used_at: expect.stringMatching(TIMESTAMP) });
    expect(JSON.stringify((await admin.list()).body)).not.toContain(created.body.secret);
  });

  it('a key created with its own rate limit shows it, is refused past it (429 RATE_LIMITED naming the key), and keeps it when rotated', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = await admin.create({ ...orgKey('Tight'), rate_limit: { rate: 1, burst: 3 } });
    expect(created.status).toBe(201);
    expect(created.body.rate_limit).toEqual({ rate: 1, burst: 3 });
    expect((await admin.get(created.body.id)).body.rate_limit).toEqual({ rate: 1, burst: 3 });
    const rotated = await admin.rotate(created.body.id);
    expect(rotated.body.rate_limit).toEqual({ rate: 1, burst: 3 });
    // Eight at once span at most two 3-second windows, each admitting 3: at least two are refused.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(runtime.apiUrl, 'GET', '/api/v1/public/recordings?limit=1', { token: rotated.body.secret })),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(6);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].body).toEqual({
      success: false,
      data: null,
      error: 'RATE_LIMITED',
      message: expect.stringContaining(`API key ${created.body.id} is over its own rate limit`),
    });
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('refuses a rate limit that is not one: burst below rate, zero, fractions, unknown fields', async () => {
    const admin = await keysApi(o, o.people.admin);
    for (const rate_limit of [
      { rate: 5, burst: 2 },
      { rate: 0, burst: 2 },
      { rate: 1.5, burst: 3 },
      { rate: 1, burst: 2, daily_quota: 5 },
      { rate: 1 },
      'fast',
    ]) {
      const refused = await admin.create({ ...orgKey('Bad limit'), rate_limit });
      expect({ rate_limit, status: refused.status, error: refused.body.error }).toEqual({
        rate_limit,
        status: 400,
        error: 'VALIDATION_ERROR',
      });
    }
  });

  it('any member creates their own personal key; it acts as them', async () => {
    const viewer = await keysApi(o, o.people.viewer);
    const created = await viewer.create(personal());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'personal',
      user_id: o.people.viewer.id,
      created_by: o.people.viewer.id,
      secret: expect.stringMatching(/^pk_user_[0-9a-f]{48}$/),
    });
    expect(await works(created.body.secret)).toBe(true);
  });

  it('members and viewers cannot create organization keys (403 INSUFFICIENT_ROLE)', async () => {
    for (const person of [o.people.member, o.people.viewer])
      expectFailure(await (await keysApi(o, person)).create(orgKey()), 403, 'INSUFFICIENT_ROLE');
  });

  it("scopes cannot exceed the role's: a personal key only what personal-key routes use at the member's role (403 SCOPES_EXCEED_ROLE)", async () => {
    const viewer = await keysApi(o, o.people.viewer);
    const member = await keysApi(o, o.people.member);
    const owner = await keysApi(o, o.people.owner);
    expectFailure(
      await viewer.create({ ...personal(), scopes: ['recordings:write'] }),
      403,
      'SCOPES_EXCEED_ROLE',
      expect.stringContaining('recordings:write'),
    );
    expect((await member.create({ ...personal(), scopes: ['recordings:read', 'recordings:write'] })).status).toBe(201);
    // Even an owner's personal key cannot carry a scope no personal-key route asks for.
    expectFailure(await owner.create({ ...personal(), scopes: ['users:read'] }), 403, 'SCOPES_EXCEED_ROLE');
    // An organization key may carry every scope its creator has.
    expect((await owner.create({ ...orgKey(), scopes: ['users:read', 'users:write', 'audit:read', 'webhooks:write'] })).status).toBe(201);
  });

  it('bad input is a 400 naming the field, and stores nothing', async () => {
    const admin = await keysApi(o, o.people.admin);
    const before = (await admin.list('limit=100')).body.api_keys.length;
    const cases: [unknown, string][] = [
      [{ ...orgKey(), kind: 'robot' }, 'kind'],
      [{ ...orgKey(), name: '' }, 'name'],
      [{ ...orgKey(), name: 'x'.repeat(101) }, 'name'],
      [{ ...orgKey(), scopes: [] }, 'scopes'],
      [{ ...orgKey(), scopes: ['recordings:read', 'recordings:read'] }, 'scopes'],
      [{ ...orgKey(), scopes: ['root'] }, 'scopes'],
      [{ ...orgKey(), expires_at: 'tomorrow' }, 'expires_at'],
      [{ ...orgKey(), expires_at: '2020-01-01T00:00:00.000Z' }, 'expires_at'],
      [{ ...orgKey(), user_id: o.people.member.id }, 'user_id'],
      [{ name: 'no kind', scopes: ['recordings:read'] }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.create(body);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expect(res.body.details.some((d: { field: string }) => d.field.startsWith(field))).toBe(true);
    }
    expect((await admin.list('limit=100')).body.api_keys.length).toBe(before);
  });
});

describe('seeing keys', () => {
  let o: KeysOrg;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    o = await keysOrg('keys_see');
    const admin = await keysApi(o, o.people.admin);
    const member = await keysApi(o, o.people.member);
    const viewer = await keysApi(o, o.people.viewer);
    ids.org = (await admin.create(orgKey())).body.id;
    ids.member = (await member.create(personal('Mo laptop'))).body.id;
    ids.viewer = (await viewer.create(personal('Vic phone'))).body.id;
  });

  it('owners and admins list every key of the organization, newest first, in pages', async () => {
    const owner = await keysApi(o, o.people.owner);
    const all = await owner.list('limit=100');
    const listed = all.body.api_keys.map((k: { id: string }) => k.id);
    expect(listed).toEqual(expect.arrayContaining([ids.org, ids.member, ids.viewer]));
    const page1 = await owner.list('limit=2');
    expect(page1.body.api_keys).toHaveLength(2);
    const page2 = await owner.list(`limit=2&cursor=${page1.body.pagination.next_cursor}`);
    expect([...page1.body.api_keys, ...page2.body.api_keys].map((k: { id: string }) => k.id)).toEqual(listed.slice(0, 4));
    const times = listed.map((id: string) => all.body.api_keys.find((k: { id: string }) => k.id === id).created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("an admin filters one member's personal keys; a member always gets only their own", async () => {
    const admin = await keysApi(o, o.people.admin);
    expect((await admin.list(`user_id=${o.people.member.id}`)).body.api_keys.map((k: { id: string }) => k.id)).toEqual([ids.member]);
    const member = await keysApi(o, o.people.member);
    expect((await member.list()).body.api_keys.map((k: { id: string }) => k.id)).toEqual([ids.member]);
    expect((await member.list(`user_id=${o.people.viewer.id}`)).body.api_keys.map((k: { id: string }) => k.id)).toEqual([ids.member]);
  });

  it("a member cannot read someone else's key or an organization key: 404 KEY_NOT_FOUND, as for a key that does not exist", async () => {
    const member = await keysApi(o, o.people.member);
    expectFailure(await member.get(ids.viewer), 404, 'KEY_NOT_FOUND');
    expectFailure(await member.get(ids.org), 404, 'KEY_NOT_FOUND');
    expectFailure(await member.get('key_00000000000000000000'), 404, 'KEY_NOT_FOUND');
    expect((await member.get(ids.member)).status).toBe(200);
  });

  it('a cursor of another list is refused', async () => {
    const admin = await keysApi(o, o.people.admin);
    const cursor = (await admin.list('limit=1')).body.pagination.next_cursor;
    expectFailure(await admin.list(`user_id=${o.people.member.id}&cursor=${cursor}`), 400, 'VALIDATION_ERROR');
    expectFailure(await admin.list('cursor=not-a-cursor'), 400, 'VALIDATION_ERROR');
  });

  it('keys of another organization are not there', async () => {
    const other = await keysOrg('keys_see_other');
    const otherOwner = await keysApi(other, other.people.owner);
    expectFailure(await otherOwner.get(ids.org), 404, 'KEY_NOT_FOUND');
    const crossed = await call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/api-keys`, { token: otherOwner.token });
    expectFailure(crossed, 403, 'INSUFFICIENT_ROLE');
  });
});

describe('rotating and revoking', () => {
  let o: KeysOrg;
  beforeAll(async () => {
    o = await keysOrg('keys_rotate');
  });

  it('a rotation issues a new secret under the same id; with a grace period the old secret keeps working', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = (await admin.create(orgKey())).body;
    const rotated = await admin.rotate(created.id, { grace_period_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      id: created.id,
      rotated_at: expect.stringMatching(TIMESTAMP),
      secret: expect.stringMatching(/^pk_org_/),
    });
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.prefix).toBe(rotated.body.secret.slice(0, 13));
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.parse(rotated.body.rotated_at)).toBe(3600_000);
    expect(await works(rotated.body.secret)).toBe(true);
    expect(await works(created.secret)).toBe(true);

    // A second rotation stops the secret still in its grace period at once: at most two work.
    const again = await admin.rotate(created.id, { grace_period_seconds: 60 });
    expect(await works(created.secret)).toBe(false);
    expect(await works(rotated.body.secret)).toBe(true);
    expect(await works(again.body.secret)).toBe(true);
  });

  it('a rotation with no body (or 0 s) stops the old secret at once', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = (await admin.create(orgKey())).body;
    const rotated = await admin.rotate(created.id);
    expect(rotated.body.previous_secret_expires_at).toBe(rotated.body.rotated_at);
    expect(await works(created.secret)).toBe(false);
    expect(await works(rotated.body.secret)).toBe(true);
  });

  it('the grace period is 0 to 86400 seconds', async () => {
    const admin = await keysApi(o, o.people.admin);
    const { id } = (await admin.create(orgKey())).body;
    for (const grace of [-1, 86_401, 1.5, '60'])
      expectFailure(await admin.rotate(id, { grace_period_seconds: grace }), 400, 'VALIDATION_ERROR');
    expect((await admin.rotate(id, { grace_period_seconds: 86_400 })).status).toBe(200);
  });

  it('a personal key is rotated by its member only: an admin gets 403 NOT_KEY_OWNER (the secret would act as someone else)', async () => {
    const member = await keysApi(o, o.people.member);
    const admin = await keysApi(o, o.people.admin);
    const { id } = (await member.create(personal())).body;
    expectFailure(await admin.rotate(id), 403, 'NOT_KEY_OWNER');
    expect((await member.rotate(id)).status).toBe(200);
  });

  it('a revocation stops every secret of the key, answers the revoked key, and can be repeated', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = (await admin.create(orgKey())).body;
    const rotated = (await admin.rotate(created.id, { grace_period_seconds: 3600 })).body;
    const revoked = await admin.revoke(created.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.id, status: 'revoked', revoked_at: expect.stringMatching(TIMESTAMP) });
    expect(await works(rotated.secret)).toBe(false);
    expect(await works(created.secret)).toBe(false);
    expect((await admin.revoke(created.id)).body.revoked_at).toBe(revoked.body.revoked_at);
    expectFailure(await admin.rotate(created.id), 409, 'KEY_REVOKED');
  });

  it('a member revokes their own personal key, not anyone else’s; an admin revokes any', async () => {
    const member = await keysApi(o, o.people.member);
    const viewer = await keysApi(o, o.people.viewer);
    const admin = await keysApi(o, o.people.admin);
    const mine = (await member.create(personal())).body;
    const theirs = (await viewer.create(personal())).body;
    expectFailure(await member.revoke(theirs.id), 404, 'KEY_NOT_FOUND');
    expect(await works(theirs.secret)).toBe(true);
    expect((await member.revoke(mine.id)).body.status).toBe('revoked');
    expect((await admin.revoke(theirs.id)).body.status).toBe('revoked');
    expect(await works(theirs.secret)).toBe(false);
  });
});

describe('expiry, use and removal', () => {
  let o: KeysOrg;
  beforeAll(async () => {
    o = await keysOrg('keys_life');
  });

  it('an expired key is 401 like a revoked one, and shows as expired', async () => {
    // The shared deployment's clock is real and every suite's: rather than wait for an expiry, the
    // keys are made as an hour ago (the key domain with its clock set back, as `seed` does), one to
    // expire a minute ago and one in an hour. test/domain/api-keys.test.ts pins the exact instant.
    const admin = await keysApi(o, o.people.admin);
    const asAdmin: MemberCaller = { kind: 'id_token', orgId: o.org, userId: o.people.admin.id, role: 'admin', actor: o.people.admin.id };
    const madeAnHourAgo = (expiresInMs: number) =>
      createApiKey({ db, now: () => new Date(Date.now() - HOUR_MS) }, asAdmin, {
        kind: 'org',
        name: 'Expiring',
        scopes: ['recordings:read'],
        expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      });
    const [expired, live] = await Promise.all([madeAnHourAgo(-60_000), madeAnHourAgo(HOUR_MS)]);
    expect(await works(live.secret)).toBe(true);
    expect((await admin.get(live.id)).body.status).toBe('active');
    const refused = await call(runtime.apiUrl, 'GET', '/api/v1/public/recordings', { token: expired.secret });
    expectFailure(refused, 401, 'UNAUTHORIZED');
    expect((await admin.get(expired.id)).body.status).toBe('expired');
    expectFailure(await admin.rotate(expired.id), 409, 'KEY_EXPIRED');
  });

  it('last_used_at is recorded on first use, and not rewritten within the hour', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = (await admin.create(orgKey())).body;
    expect(created.last_used_at).toBeNull();
    await works(created.secret);
    const first = (await admin.get(created.id)).body.last_used_at;
    expect(first).toMatch(TIMESTAMP);
    await works(created.secret);
    expect((await admin.get(created.id)).body.last_used_at).toBe(first);
  });

  it('removing a member revokes their personal keys (an event consumer), attributed to who removed them', async () => {
    const member = await keysApi(o, o.people.member);
    const mine = (await member.create(personal())).body;
    const admin = await keysApi(o, o.people.admin);
    const removed = await call(runtime.apiUrl, 'DELETE', `/api/v1/organization/${o.org}/users/${o.people.member.id}`, {
      token: admin.token,
    });
    expect(removed.status).toBe(200);
    // The route policy refuses the key of a member who is not active at once…
    expect(await works(mine.secret)).toBe(false);
    // …and the consumer revokes it for good.
    const revoked = await eventually(
      () => admin.get(mine.id),
      (res: ApiResponse) => res.body.status === 'revoked',
    );
    expect(revoked.body.revoked_at).toMatch(TIMESTAMP);
    const entries = await auditOf(o, mine.id, 'api_key.revoked');
    // The revocation carries the removal's actor and correlation id: the audit log shows why it happened.
    expect(entries.find((e) => e.type === 'api_key.revoked')).toMatchObject({
      actor: { kind: 'user', id: o.people.admin.id },
      correlation_id: removed.headers.get('x-correlation-id'),
    });
  });

  it('creations, rotations and revocations reach the audit log with their actor, and never a secret', async () => {
    const admin = await keysApi(o, o.people.admin);
    const created = (await admin.create(orgKey('Audited'))).body;
    const rotated = (await admin.rotate(created.id, { grace_period_seconds: 10 })).body;
    await admin.revoke(created.id);
    const entries = await auditOf(o, created.id, 'api_key.revoked');
    expect(entries.map((e) => e.type).sort()).toEqual(['api_key.created', 'api_key.revoked', 'api_key.rotated']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor: { kind: 'user', id: o.people.admin.id }, resource: { type: 'api_key', id: created.id } });
      expect(JSON.stringify(entry)).not.toContain(created.secret.slice(7));
      expect(JSON.stringify(entry)).not.toContain(rotated.secret.slice(7));
      expect(JSON.stringify(entry)).not.toContain(created.prefix);
    }
  });
});

/** The audit entries of one key, once one of the given type is there. */
async function auditOf(o: KeysOrg, keyId: string, waitFor: string): Promise<AuditEntry[]> {
  const res = await eventually(
    () => call(runtime.apiUrl, 'GET', `/api/v1/organization/${o.org}/audit-log?resource_id=${keyId}&limit=50`, { token: o.keys.audit }),
    (r: ApiResponse) => r.status === 200 && r.body.entries?.some((e: AuditEntry) => e.type === waitFor),
  );
  return res.body.entries;
}
