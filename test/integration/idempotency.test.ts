import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { LOCAL } from '../../infra/local/local-config';
import { ROUTES, SAMPLE_REQUESTS, type RouteName } from '../../shared/routes/manifest';
import type { CredentialName } from '../../shared/routes/sample-request';
import { generateApiKey } from '../../shared/auth/api-key-secrets';
import { ConflictError } from '../../shared/core/errors';
import type { HttpContext, HttpMiddleware } from '../../shared/http/http-context';
import { errorResponse } from '../../shared/http/middlewares/error-response';
import { idempotency } from '../../shared/http/middlewares/idempotency';
import { envelope } from '../../shared/http/responses';
import { takesIdempotencyKey, type RouteDefinition } from '../../shared/routes/route-definition';
import { createIdempotencyStore } from '../../shared/storage/idempotency-records';
import { call, expectFailure, idTokenFor, localDeployment, type ApiResponse } from '../support/api';
import { buildOrg, seedOrg } from '../support/org-builder';
import { sampleIds, seedSampleData } from '../support/sample-data';
import { stagesSettled } from '../support/stages';

/**
 * Idempotency-Key end to end (docs/idempotency.md): HTTP -> local API Gateway emulator ->
 * authorizer -> handler with Powertools' idempotency middleware -> the idempotency table of
 * DynamoDB Local, created by `npm start` like the single table.
 */
const { runtime } = localDeployment();

function buildIdempotencyOrg() {
  return buildOrg({
    label: 'idem',
    keys: {
      full: { scopes: ['templates:read', 'templates:write', 'invites:read', 'invites:write'] },
      other: { scopes: ['templates:read', 'templates:write'] },
    },
  });
}
type Org = ReturnType<typeof buildIdempotencyOrg>;

const templatesOf = (org: Org) => `/api/v1/organization/${org.org}/templates`;
const invitesOf = (org: Org) => `/api/v1/organization/${org.org}/invites`;
const post = (path: string, token: string, body: unknown, key?: string) =>
  call(runtime.apiUrl, 'POST', path, { token, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
const template = (name: string) => ({ name, sections: [{ title: 'Notes', prompt: 'Summarize the call.' }] });

async function templateNames(org: Org): Promise<string[]> {
  const res = await call(runtime.apiUrl, 'GET', `${templatesOf(org)}?limit=100`, { token: org.keys.full });
  if (res.status !== 200) throw new Error(`GET templates: ${res.status}`);
  return (res.body.templates as { name: string }[]).map((t) => t.name);
}

async function invitesTo(org: Org, email: string): Promise<{ id: string; status: string }[]> {
  const res = await call(runtime.apiUrl, 'GET', `${invitesOf(org)}?limit=100`, { token: org.keys.full });
  if (res.status !== 200) throw new Error(`GET invites: ${res.status}`);
  return (res.body.invites as { id: string; email: string; status: string }[]).filter((i) => i.email === email);
}

const replayed = (res: ApiResponse) => res.headers.get('idempotent-replayed');

/** Every record of the deployment's idempotency table, as stored. */
async function scanIdempotencyTable(): Promise<unknown[]> {
  const client = new DynamoDBClient({
    region: runtime.region,
    endpoint: runtime.dynamoDbEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const items: unknown[] = [];
    let start: Record<string, any> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: LOCAL.idempotencyTableName, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  } finally {
    client.destroy();
  }
}

/** Every string value inside a JSON value. */
const textValues = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(textValues) : [];

describe('Idempotency-Key on POST routes', () => {
  let org: Org;
  let ownerToken: string;

  beforeAll(async () => {
    org = await seedOrg(buildIdempotencyOrg());
    ownerToken = await idTokenFor(org.people.owner);
  });

  it('replays the first response after a lost answer: same status and body, Idempotent-Replayed: true, one template', async () => {
    const key = randomUUID();
    const name = `Lost answer ${key}`;
    const first = await post(templatesOf(org), org.keys.full, template(name), key); // the client never sees this answer
    const retry = await post(templatesOf(org), org.keys.full, template(name), key);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    expect({ status: retry.status, body: retry.body, replayed: replayed(retry) }).toEqual({
      status: 201,
      body: first.body,
      replayed: 'true',
    });
    // Each answer carries its own request's correlation id and the CORS headers.
    expect(retry.headers.get('x-correlation-id')).not.toBe(first.headers.get('x-correlation-id'));
    expect(retry.headers.get('access-control-expose-headers')).toContain('idempotent-replayed');
    expect((await templateNames(org)).filter((n) => n === name)).toHaveLength(1);
  });

  it('sends one invitation for a retried keyed invite', async () => {
    const key = randomUUID();
    const email = org.address(`retry-${key.slice(0, 8)}`);
    const first = await post(invitesOf(org), org.keys.full, { email, role: 'member' }, key);
    const retry = await post(invitesOf(org), org.keys.full, { email, role: 'member' }, key);
    expect(first.status).toBe(201);
    expect({ status: retry.status, body: retry.body, replayed: replayed(retry) }).toEqual({
      status: 201,
      body: first.body,
      replayed: 'true',
    });
    expect(await invitesTo(org, email)).toEqual([expect.objectContaining({ id: first.body.id, status: 'pending' })]);
  });

  it('runs two identical keyed POSTs sent at once exactly once: the other is 409 IDEMPOTENCY_KEY_IN_PROGRESS or the replay', async () => {
    for (let round = 0; round < 3; round++) {
      const key = randomUUID();
      const name = `Concurrent ${key}`;
      const answers = await Promise.all([0, 1].map(() => post(templatesOf(org), org.keys.full, template(name), key)));
      const created = answers.filter((a) => a.status === 201 && replayed(a) === null);
      expect(created).toHaveLength(1);
      for (const other of answers.filter((a) => a !== created[0])) {
        if (other.status === 409) {
          expectFailure(other, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
          expect(other.headers.get('retry-after')).toBe('1');
        } else {
          expect({ status: other.status, body: other.body, replayed: replayed(other) }).toEqual({
            status: 201,
            body: created[0].body,
            replayed: 'true',
          });
        }
      }
      expect((await templateNames(org)).filter((n) => n === name)).toHaveLength(1);
      // Once the first is done, the key replays.
      const later = await post(templatesOf(org), org.keys.full, template(name), key);
      expect({ body: later.body, replayed: replayed(later) }).toEqual({ body: created[0].body, replayed: 'true' });
    }
  });

  it('refuses the same key with another body with 422 IDEMPOTENCY_KEY_REUSED and creates nothing more', async () => {
    const key = randomUUID();
    const first = await post(templatesOf(org), org.keys.full, template(`Reused A ${key}`), key);
    const reused = await post(templatesOf(org), org.keys.full, template(`Reused B ${key}`), key);
    expect(first.status).toBe(201);
    expectFailure(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect((await templateNames(org)).filter((n) => n.endsWith(key))).toEqual([`Reused A ${key}`]);
    // The first request still replays.
    expect((await post(templatesOf(org), org.keys.full, template(`Reused A ${key}`), key)).body).toEqual(first.body);
  });

  it('refuses the same key on the same route for other path ids with 422, and sends nothing again', async () => {
    const pending = await Promise.all(
      ['a', 'b'].map(
        async (which) =>
          (await post(invitesOf(org), org.keys.full, { email: org.address(`path-${which}-${randomUUID().slice(0, 8)}`) })).body
            .id as string,
      ),
    );
    const key = randomUUID();
    const resendOf = (inviteId: string) => post(`${invitesOf(org)}/${inviteId}/resend`, org.keys.full, undefined, key);
    expect((await resendOf(pending[0])).status).toBe(200);
    expectFailure(await resendOf(pending[1]), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(replayed(await resendOf(pending[0]))).toBe('true');
  });

  it("keeps different credentials' keys apart: the same key by another key or an ID token runs again", async () => {
    const key = randomUUID();
    const name = `Shared key ${key}`;
    const byKey = await post(templatesOf(org), org.keys.full, template(name), key);
    const byOtherKey = await post(templatesOf(org), org.keys.other, template(name), key);
    const byToken = await post(templatesOf(org), ownerToken, template(name), key);
    expect(byKey.status).toBe(201);
    // The names are equal: the second and third create their own template (names need not be unique) or are refused on their own.
    for (const answer of [byOtherKey, byToken]) {
      expect(replayed(answer)).toBeNull();
      expect(answer.body.id).not.toBe(byKey.body.id);
    }
    expect((await templateNames(org)).filter((n) => n === name)).toHaveLength(3);
  });

  it('stores a 4xx and replays it, even once the request would succeed', async () => {
    const email = org.address(`pending-${randomUUID().slice(0, 8)}`);
    const invited = await post(invitesOf(org), org.keys.full, { email, role: 'member' });
    expect(invited.status).toBe(201);
    const key = randomUUID();
    const refused = await post(invitesOf(org), org.keys.full, { email, role: 'member' }, key);
    expectFailure(refused, 409, 'INVITE_PENDING');
    expect((await call(runtime.apiUrl, 'DELETE', `${invitesOf(org)}/${invited.body.id}`, { token: org.keys.full })).status).toBe(200);
    const replay = await post(invitesOf(org), org.keys.full, { email, role: 'member' }, key);
    expect({ status: replay.status, body: replay.body, replayed: replayed(replay) }).toEqual({
      status: 409,
      body: refused.body,
      replayed: 'true',
    });
    // A new key runs the request: the email has no pending invitation any more.
    expect((await post(invitesOf(org), org.keys.full, { email, role: 'member' }, randomUUID())).status).toBe(201);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['not ASCII', 'clé-1'],
    ['a tab inside', 'a\tb'],
  ])('refuses a key that is %s with 400 INVALID_IDEMPOTENCY_KEY, creating nothing', async (_label, key) => {
    const name = `Invalid key ${randomUUID()}`;
    expectFailure(await post(templatesOf(org), org.keys.full, template(name), key), 400, 'INVALID_IDEMPOTENCY_KEY');
    expect(await templateNames(org)).not.toContain(name);
  });

  it("accepts a key of 255 printable characters, and the draft's quoted form as the same key", async () => {
    const key = `${randomUUID()}${'~'.repeat(255 - 36)}`;
    const name = `Long key ${key.slice(0, 36)}`;
    const bare = await post(templatesOf(org), org.keys.full, template(name), key);
    const quoted = await post(templatesOf(org), org.keys.full, template(name), `"${key}"`);
    expect(bare.status).toBe(201);
    expect({ body: quoted.body, replayed: replayed(quoted) }).toEqual({ body: bare.body, replayed: 'true' });
    expect((await templateNames(org)).filter((n) => n === name)).toHaveLength(1);
  });

  it('changes nothing without the header: each POST runs', async () => {
    const name = `No key ${randomUUID()}`;
    const [a, b] = [
      await post(templatesOf(org), org.keys.full, template(name)),
      await post(templatesOf(org), org.keys.full, template(name)),
    ];
    expect([a.status, b.status, replayed(a), replayed(b)]).toEqual([201, 201, null, null]);
    expect((await templateNames(org)).filter((n) => n === name)).toHaveLength(2);
  });

  it('answers a CORS preflight that allows the Idempotency-Key header', async () => {
    const res = await fetch(`${runtime.apiUrl}${templatesOf(org)}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'idempotency-key' },
    });
    expect(res.headers.get('access-control-allow-headers')?.split(',')).toContain('idempotency-key');
  });
});

/** Every POST route of the manifest, on the sample data: the header is honoured (a second call with the key replays the first). */
describe('every POST route of the manifest takes Idempotency-Key', () => {
  const keyedRoutes = (Object.entries(ROUTES) as [RouteName, RouteDefinition][]).filter(([, route]) => takesIdempotencyKey(route));
  const ids = sampleIds('idm');
  const bearer = {} as Record<CredentialName, string>;

  beforeAll(async () => {
    const orgKey = generateApiKey('org_key');
    const personalKey = generateApiKey('user_key');
    await seedSampleData(localDeployment().db, ids, { orgKey, personalKey });
    bearer.orgKey = orgKey;
    bearer.personalKey = personalKey;
    bearer.idToken = await idTokenFor({ id: `${ids.orgId}_invitee`, email: ids.inviteeEmail });
    bearer.ownerToken = await idTokenFor({ id: `${ids.orgId}_owner_subject`, email: ids.ownerEmail });
  });

  it('covers the POST routes the issue names', () => {
    expect(keyedRoutes.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'restoreRecording',
        'createUploadUrl',
        'createTemplate',
        'sendInvite',
        'resendInvite',
        'acceptInvite',
        'createWebhook',
        'createApiKey',
        'rotateApiKey',
      ]),
    );
  });

  // In manifest order, like the sample requests: each runs once on the sample data.
  it.each(keyedRoutes.map(([name, route]) => [name, route] as const))(
    '%s replays its first answer for the same key',
    async (name, route) => {
      const sample = SAMPLE_REQUESTS[name](ids);
      const path = route.path.replace(/\{(\w+)\}/g, (_all, param: string) =>
        encodeURIComponent(param === 'orgId' ? ids.orgId : sample.path![param]),
      );
      const key = randomUUID();
      const send = () =>
        call(runtime.apiUrl, 'POST', path, { token: bearer[sample.credential!], body: sample.body, headers: { 'Idempotency-Key': key } });
      // Both transcribe samples act on one recording: the second waits for the first one's job.
      await stagesSettled(localDeployment().db, ids.orgId);
      const first = await send();
      const second = await send();
      expect({ name, status: first.status }).toEqual({ name, status: sample.status });
      expect({ name, status: second.status, body: second.body, replayed: replayed(second) }).toEqual({
        name,
        status: first.status,
        body: first.body,
        replayed: 'true',
      });
      // The table holds no value of the answer readable (the secrets of key and webhook creation among them).
      const table = JSON.stringify(await scanIdempotencyTable());
      const leaked = textValues(first.body).filter((value) => value.length >= 12 && table.includes(value));
      expect({ name, leaked }).toEqual({ name, leaked: [] });
    },
  );
});

/**
 * What a keyed request costs in the idempotency table, measured: Powertools' DynamoDB layer
 * against DynamoDB Local's idempotency table, each command it sends counted.
 */
describe('the reads and writes Idempotency-Key adds to a request', () => {
  const commands: string[] = [];
  const client = new DynamoDBClient({
    region: runtime.region,
    endpoint: runtime.dynamoDbEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Each command, with the write capacity DynamoDB reports for it (a refused conditional write reports none here, but is billed as one).
  const units: (number | undefined)[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(context.commandName as string);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      try {
        const result = await next(args);
        units.push((result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits);
        return result;
      } catch (error) {
        units.push(undefined);
        throw error;
      }
    },
    { step: 'initialize', name: 'countCommands' },
  );
  const store = createIdempotencyStore({ tableName: LOCAL.idempotencyTableName, region: runtime.region, client });
  let outcome: () => Promise<APIGatewayProxyResult> = async () => envelope({ id: 'tpl_1' }, undefined, 201);
  // One credential for the whole scenario, as the authorizer context gives it.
  const caller: HttpMiddleware = {
    before: ({ context }) => {
      context.principal = { kind: 'org_key', orgId: 'org_cost', keyId: 'key_cost', scopes: [] };
      context.jsonBody = { name: 'Cost' };
    },
  };
  const run = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(caller)
    .use(idempotency('createTemplate', () => store))
    .use(errorResponse())
    .handler(async (_event, context) => context.idempotentReplay ?? outcome());
  const event = (key: string) =>
    ({
      resource: '/t',
      headers: { 'idempotency-key': key },
      pathParameters: { orgId: 'org_cost' },
      queryStringParameters: null,
    }) as unknown as APIGatewayProxyEvent;
  const context = () => ({ getRemainingTimeInMillis: () => 10_000 }) as HttpContext;

  afterAll(() => client.destroy());

  it('first request: 2 writes (PutItem reserves, UpdateItem stores); replay: 1 conditional PutItem refused with the record; 5xx: PutItem and DeleteItem; none without the header', async () => {
    const key = randomUUID();
    const measure = async (send: () => Promise<unknown>) => {
      commands.length = 0;
      units.length = 0;
      await send();
      return [...commands];
    };
    expect(await measure(() => run(event(key), context()))).toEqual(['PutItemCommand', 'UpdateItemCommand']);
    const firstUnits = [...units];
    // A typical 1 KB answer: the stored record outgrows one write unit.
    outcome = async () => envelope({ id: 'tpl_2', description: 'x'.repeat(1000) }, undefined, 201);
    const bigKey = randomUUID();
    await measure(() => run(event(bigKey), context()));
    const bigUnits = [...units];
    expect({ firstUnits, bigUnits }).toEqual({ firstUnits: [1, 1], bigUnits: [1, 2] });
    outcome = async () => envelope({ id: 'tpl_1' }, undefined, 201);
    expect(await measure(() => run(event(key), context()))).toEqual(['PutItemCommand']);
    outcome = async () => {
      throw new Error('the table is down');
    };
    expect(await measure(() => run(event(randomUUID()), context()))).toEqual(['PutItemCommand', 'DeleteItemCommand']);
    outcome = async () => {
      throw new ConflictError('WEBHOOK_LIMIT_REACHED', 'full');
    };
    expect(await measure(() => run(event(randomUUID()), context()))).toEqual(['PutItemCommand', 'UpdateItemCommand']);
    expect(await measure(() => run({ ...event(''), headers: {} }, context()))).toEqual([]);
  });
});
