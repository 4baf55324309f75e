import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { Principal } from '../../shared/auth/principal';
import { ConflictError, ForbiddenError } from '../../shared/core/errors';
import type { HttpContext, HttpMiddleware } from '../../shared/http/http-context';
import { correlationId } from '../../shared/http/middlewares/correlation-id';
import { corsHeaders } from '../../shared/http/middlewares/cors-headers';
import { errorResponse } from '../../shared/http/middlewares/error-response';
import { credentialOf, idempotency, idempotencyKeyOf } from '../../shared/http/middlewares/idempotency';
import { envelope } from '../../shared/http/responses';
import { ROUTES, type RouteName } from '../../shared/routes/manifest';
import { listHandlers } from '../../infra/function-list';
import { takesIdempotencyKey, type RouteDefinition } from '../../shared/routes/route-definition';
import { IDEMPOTENCY_TABLE } from '../../shared/storage/idempotency-table-definition';

/**
 * Powertools' persistence layer contract, in memory, with the DynamoDB layer's put condition:
 * a record can be written over only once it expired, or while its in-progress time ran out.
 */
class MemoryPersistenceLayer extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();
  readonly calls: string[] = [];

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    this.calls.push('put');
    const existing = this.records.get(record.idempotencyKey);
    const inProgressOver =
      existing?.getStatus() === 'INPROGRESS' &&
      existing.inProgressExpiryTimestamp !== undefined &&
      existing.inProgressExpiryTimestamp < Date.now();
    if (existing && !existing.isExpired() && !inProgressOver) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }
  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    this.calls.push('get');
    const record = this.records.get(idempotencyKey);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }
  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    this.calls.push('update');
    this.records.set(record.idempotencyKey, record);
  }
  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.calls.push('delete');
    this.records.delete(record.idempotencyKey);
  }
}

const OWNER: Principal = { kind: 'id_token', issuer: 'https://issuer.example', subject: 'sub-1', userId: 'usr_1', emailVerified: true };
const ORG_KEY: Principal = { kind: 'org_key', orgId: 'org_1', keyId: 'key_1', scopes: ['templates:write'] };

interface Call {
  key?: string;
  principal?: Principal;
  body?: unknown;
  path?: Record<string, string>;
}

/**
 * A POST route's middy stack as api-handler builds it (correlation id, CORS, the principal the
 * authorizer context gives, idempotency, the error envelope) around `route`, which counts its runs.
 */
function keyedRoute(route: (body: unknown) => Promise<APIGatewayProxyResult>, store = new MemoryPersistenceLayer()) {
  const runs: unknown[] = [];
  const principalFrom: HttpMiddleware = {
    before: ({ event, context }) => {
      context.principal = JSON.parse(event.headers['x-test-principal'] ?? JSON.stringify(OWNER)) as Principal;
      context.jsonBody = event.body === null ? undefined : JSON.parse(event.body);
    },
  };
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(correlationId('createTemplate'))
    .use(corsHeaders())
    .use(principalFrom)
    .use(idempotency('createTemplate', () => store))
    .use(errorResponse())
    .handler(async (_event, context) => {
      if (context.idempotentReplay) return context.idempotentReplay;
      runs.push(context.jsonBody);
      return route(context.jsonBody);
    });
  const call = ({ key, principal = OWNER, body = { name: 'Standup' }, path = { orgId: 'org_1' } }: Call = {}) =>
    handler(
      {
        resource: '/api/v1/organization/{orgId}/templates',
        headers: { 'x-test-principal': JSON.stringify(principal), ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
        pathParameters: path,
        queryStringParameters: null,
        body: JSON.stringify(body),
        requestContext: { requestId: 'req' },
      } as unknown as APIGatewayProxyEvent,
      { getRemainingTimeInMillis: () => 10_000 } as HttpContext,
    );
  return { call, runs, store };
}

let created = 0;
const createTemplate = async (body: unknown) => envelope({ id: `tpl_${++created}`, ...(body as object) }, undefined, 201);

describe('idempotencyKeyOf()', () => {
  it('reads the header in any case, absent as undefined', () => {
    expect(idempotencyKeyOf({ 'Idempotency-Key': 'abc' })).toBe('abc');
    expect(idempotencyKeyOf({ 'idempotency-key': 'abc' })).toBe('abc');
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf(null)).toBeUndefined();
  });

  it("takes the draft's quoted Structured Field string as the same key as the bare one", () => {
    expect(idempotencyKeyOf({ 'idempotency-key': '"8e03978e-40d5"' })).toBe('8e03978e-40d5');
    expect(idempotencyKeyOf({ 'idempotency-key': '"a\\"b\\\\c"' })).toBe('a"b\\c');
  });

  it('accepts 1 to 255 printable ASCII characters and refuses anything else with 400 INVALID_IDEMPOTENCY_KEY', () => {
    expect(idempotencyKeyOf({ 'idempotency-key': 'k'.repeat(255) })).toHaveLength(255);
    expect(idempotencyKeyOf({ 'idempotency-key': '~!a b{}' })).toBe('~!a b{}');
    for (const bad of ['', 'k'.repeat(256), 'clé', 'tab\there', 'new\nline', '""', 'emoji😀']) {
      expect(() => idempotencyKeyOf({ 'idempotency-key': bad })).toThrow(
        expect.objectContaining({ statusCode: 400, code: 'INVALID_IDEMPOTENCY_KEY' }),
      );
    }
  });
});

describe('credentialOf()', () => {
  it('names an ID token by issuer and subject, an API key by its id', () => {
    expect(credentialOf(OWNER)).toBe('id_token https://issuer.example sub-1');
    expect(credentialOf(ORG_KEY)).toBe('org_key key_1');
    expect(credentialOf({ ...ORG_KEY, kind: 'user_key', userId: 'usr_1' })).toBe('user_key key_1');
  });
});

describe('idempotency()', () => {
  afterEach(() => jest.restoreAllMocks());

  it('changes nothing without the header: the route runs each time and nothing is stored', async () => {
    const { call, runs, store } = keyedRoute(createTemplate);
    const [first, second] = [await call(), await call()];
    expect(runs).toHaveLength(2);
    expect(JSON.parse(first.body).data.id).not.toBe(JSON.parse(second.body).data.id);
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    expect(store.calls).toEqual([]);
  });

  it('runs the route once per key and replays its status, body and own headers, with fresh CORS and correlation headers', async () => {
    const { call, runs, store } = keyedRoute(createTemplate);
    const first = await call({ key: 'k-1' });
    const replay = await call({ key: 'k-1' });
    expect(runs).toHaveLength(1);
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(first.body);
    expect(replay.headers).toEqual(
      expect.objectContaining({ 'content-type': 'application/json', 'idempotent-replayed': 'true', 'access-control-allow-origin': '*' }),
    );
    expect(replay.headers?.['x-correlation-id']).not.toBe(first.headers?.['x-correlation-id']);
    expect(first.headers?.['idempotent-replayed']).toBeUndefined();
    // First: reserve, store. Replay: one refused reserve that returns the record.
    expect(store.calls).toEqual(['put', 'update', 'put']);
  });

  it("stores the record under the route and a hash, for 24 hours, with the status, the route's own headers and the body sealed", async () => {
    const { call, store } = keyedRoute(createTemplate);
    const now = Date.now();
    await call({ key: 'k-1' });
    const [[id, record]] = [...store.records];
    expect(id).toMatch(/^createTemplate#[A-Za-z0-9+/]{43}=$/);
    expect(id).not.toContain('k-1');
    expect(record.getStatus()).toBe('COMPLETED');
    expect(record.expiryTimestamp! - now / 1000).toBeCloseTo(IDEMPOTENCY_TABLE.recordTtlSeconds, -1);
    expect(record.getResponse()).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: expect.stringMatching(/^v1\./),
    });
  });

  it('seals the stored body: the record never holds a response (a secret shown once) readable, nor the key that opens it', async () => {
    const secret = 'whsec_shown_once_0123456789';
    const { call, store } = keyedRoute(async () => envelope({ id: 'wh_1', secret }, undefined, 201));
    const first = await call({ key: 'k-secret' });
    const stored = JSON.stringify([...store.records.values()].map((record) => ({ ...record, response: record.getResponse() })));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('wh_1');
    expect(stored).not.toContain('k-secret');
    expect(JSON.parse(first.body).data.secret).toBe(secret);
    expect(JSON.parse((await call({ key: 'k-secret' })).body).data.secret).toBe(secret);
  });

  it('runs the route again once the record is over 24 hours old', async () => {
    const { call, runs } = keyedRoute(createTemplate);
    const start = Date.now();
    await call({ key: 'k-1' });
    jest.spyOn(Date, 'now').mockReturnValue(start + (IDEMPOTENCY_TABLE.recordTtlSeconds + 1) * 1000);
    const later = await call({ key: 'k-1' });
    expect(runs).toHaveLength(2);
    expect(later.headers?.['idempotent-replayed']).toBeUndefined();
  });

  it('refuses the same key with another body or other path ids with 422 IDEMPOTENCY_KEY_REUSED, and keeps the first response', async () => {
    const { call, runs } = keyedRoute(createTemplate);
    const first = await call({ key: 'k-1', body: { name: 'Standup' } });
    for (const other of [{ body: { name: 'Retro' } }, { path: { orgId: 'org_2' } }]) {
      const reused = await call({ key: 'k-1', ...other });
      expect(reused.statusCode).toBe(422);
      expect(JSON.parse(reused.body)).toEqual(expect.objectContaining({ error: 'IDEMPOTENCY_KEY_REUSED' }));
    }
    expect(runs).toHaveLength(1);
    expect((await call({ key: 'k-1', body: { name: 'Standup' } })).body).toBe(first.body);
  });

  it('treats a body with the same values in another key order or spacing as the same request', async () => {
    const { call, runs } = keyedRoute(createTemplate);
    await call({ key: 'k-1', body: { name: 'Standup', description: 'daily' } });
    const replay = await call({ key: 'k-1', body: { description: 'daily', name: 'Standup' } });
    expect(replay.headers?.['idempotent-replayed']).toBe('true');
    expect(runs).toHaveLength(1);
  });

  it('keeps the keys of different credentials apart', async () => {
    const { call, runs } = keyedRoute(createTemplate);
    const mine = await call({ key: 'shared', principal: OWNER });
    const theirs = await call({ key: 'shared', principal: ORG_KEY });
    expect(runs).toHaveLength(2);
    expect(theirs.headers?.['idempotent-replayed']).toBeUndefined();
    expect(JSON.parse(theirs.body).data.id).not.toBe(JSON.parse(mine.body).data.id);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After while the first request runs, then replays', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { call, runs } = keyedRoute(async (body) => {
      await held;
      return createTemplate(body);
    });
    const first = call({ key: 'k-1' });
    await new Promise((resolve) => setImmediate(resolve));
    const meanwhile = await call({ key: 'k-1' });
    expect(meanwhile.statusCode).toBe(409);
    expect(JSON.parse(meanwhile.body).error).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(meanwhile.headers?.['retry-after']).toBe('1');
    release();
    const done = await first;
    const after = await call({ key: 'k-1' });
    expect(runs).toHaveLength(1);
    expect(after.body).toBe(done.body);
  });

  it('stores a refusal (4xx) and replays it without running the route again', async () => {
    const { call, runs } = keyedRoute(async () => {
      throw new ConflictError('INVITE_PENDING', 'taken');
    });
    const first = await call({ key: 'k-1' });
    const replay = await call({ key: 'k-1' });
    expect([first.statusCode, replay.statusCode]).toEqual([409, 409]);
    expect(replay.body).toBe(first.body);
    expect(replay.headers?.['idempotent-replayed']).toBe('true');
    expect(runs).toHaveLength(1);
  });

  it('stores no 5xx, so a retry with the same key runs the route again', async () => {
    let failing = true;
    const { call, runs, store } = keyedRoute(async (body) => {
      if (failing) throw new Error('the table is down');
      return createTemplate(body);
    });
    expect((await call({ key: 'k-1' })).statusCode).toBe(500);
    expect(store.records.size).toBe(0);
    failing = false;
    const retried = await call({ key: 'k-1' });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers?.['idempotent-replayed']).toBeUndefined();
    expect(runs).toHaveLength(2);
  });

  it('answers an invalid key with 400 before running the route, and touches no record', async () => {
    const { call, runs, store } = keyedRoute(createTemplate);
    const refused = await call({ key: 'k'.repeat(256) });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).error).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(runs).toHaveLength(0);
    expect(store.calls).toEqual([]);
  });

  it('reserves nothing for a request refused before it (the policy): the failure of another middleware is not stored', async () => {
    const store = new MemoryPersistenceLayer();
    const refuse: HttpMiddleware = {
      before: () => {
        throw new ForbiddenError('INSUFFICIENT_ROLE', 'no');
      },
    };
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
      .use(refuse)
      .use(idempotency('createTemplate', () => store))
      .use(errorResponse())
      .handler(async () => envelope({}));
    const response = await handler({ headers: { 'idempotency-key': 'k-1' } } as unknown as APIGatewayProxyEvent, {} as HttpContext);
    expect(response.statusCode).toBe(403);
    expect(store.calls).toEqual([]);
  });
});

describe('Idempotency-Key in the manifest', () => {
  const keyed = (Object.keys(ROUTES) as RouteName[]).filter((name) => takesIdempotencyKey(ROUTES[name]));

  it('is taken by every authenticated POST route and no other', () => {
    expect(keyed).toEqual(
      (Object.keys(ROUTES) as RouteName[]).filter(
        (name) => (ROUTES[name] as RouteDefinition).method === 'POST' && (ROUTES[name] as RouteDefinition).access !== 'public',
      ),
    );
    expect(keyed).toEqual(
      expect.arrayContaining(['createTemplate', 'sendInvite', 'acceptInvite', 'createWebhook', 'restoreRecording', 'createUploadUrl']),
    );
  });

  it("gives exactly those routes' functions the idempotency table, and nothing wider", () => {
    for (const { routes, permissions } of listHandlers()) {
      const takesKey = routes.some((name) => keyed.includes(name));
      expect([routes, permissions.idempotency]).toEqual([
        routes,
        takesKey ? ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] : undefined,
      ]);
    }
  });
});
