import http from 'node:http';
import { createApiKey, revokeApiKey } from '../../shared/operator-tasks/api-keys';
import { AUTHENTICATION_FAILURE_MESSAGES } from '../../shared/auth/bearer-credentials';
import { corsPreflightHeaders, GATEWAY } from '../../shared/http/gateway';
import { listEndpoints } from '../../shared/routes/manifest';
import { call, idp, idTokenFor, localDeployment, seed, unique } from '../support/api';

/**
 * What the local API Gateway emulator answers before (or instead of) a handler: the
 * authorizer's 401s and their reasons, request limits, malformed targets, CORS preflights.
 * Everything it answers must be the API's error envelope (or a preflight) with
 * x-correlation-id, never a 502 or Node's bare status line. Requests `call` cannot send
 * (or whose statuses the OpenAPI document does not list) go through `raw`.
 */
const { runtime, db } = localDeployment();
const api = new URL(runtime.apiUrl);

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One HTTP/1.1 request exactly as given (path unencoded, any header size, any body). */
function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: Buffer | string; chunks?: Buffer[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      { host: api.hostname, port: api.port, method, path, headers: options.headers, agent: false },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode!, headers: response.headers, text, body });
        });
      },
    );
    // The server may answer and close before it has read the whole body it refuses.
    request.on('error', (error) => (answered ? undefined : reject(error)));
    if (options.chunks) {
      for (const chunk of options.chunks) request.write(chunk);
      request.end();
    } else {
      request.end(options.body);
    }
  });
}

/** The error envelope, with the headers every gateway answer carries. */
function expectEnvelope(res: RawResponse, status: number, error: string, message: unknown = expect.any(String)) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { success: false, data: null, error, message } });
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.headers[GATEWAY.correlationHeader]).toEqual(expect.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/));
}

const id = unique();
const org = `org_${id}`;
const owner = { id: `usr_owner_${id}`, email: `owner.${id}@example.com`, display_name: 'Owen Owner' };
const orgKey = `pk_org_${id}${'a'.repeat(24)}`;
const usersPath = `/api/v1/organization/${org}/users`;

beforeAll(async () => {
  await seed(db, {
    orgs: [{ id: org, name: `Org ${id}` }],
    users: [owner],
    memberships: [{ org_id: org, user_id: owner.id, role: 'owner' }],
    api_keys: [{ org_id: org, key: orgKey, scopes: ['users:read'] }],
  });
});

describe('the Authorization scheme is case-insensitive (RFC 9110 §11.1)', () => {
  it.each(['bearer', 'BEARER', 'bEaReR'])(
    'accepts "%s" with a key and with an ID token, on a route and its public alias',
    async (scheme) => {
      const token = await idTokenFor(owner);
      for (const path of [usersPath, '/api/v1/public/users']) {
        expect((await call(runtime.apiUrl, 'GET', path, { authorization: `${scheme} ${orgKey}` })).status).toBe(200);
        expect((await call(runtime.apiUrl, 'GET', path, { authorization: `${scheme} ${token}` })).status).toBe(200);
      }
    },
  );
});

describe('401 says which of missing, malformed, expired and invalid it was', () => {
  const missing = `Bearer realm="${GATEWAY.realm}"`;
  const invalidToken = `Bearer realm="${GATEWAY.realm}", error="invalid_token"`;

  async function expect401(authorization: string | undefined, reason: keyof typeof AUTHENTICATION_FAILURE_MESSAGES) {
    for (const path of [usersPath, '/api/v1/public/users']) {
      const res = await raw('GET', path, { headers: authorization === undefined ? {} : { authorization } });
      expectEnvelope(res, 401, 'UNAUTHORIZED', AUTHENTICATION_FAILURE_MESSAGES[reason]);
      expect(res.headers['www-authenticate']).toBe(reason === 'missing' ? missing : invalidToken);
      expect(res.headers['access-control-allow-origin']).toBe(GATEWAY.cors.allowOrigin);
    }
  }

  it('missing: no Authorization header, or an empty one', async () => {
    await expect401(undefined, 'missing');
    await expect401('', 'missing');
  });

  it.each([
    ['a scheme alone', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a token with spaces', 'Bearer a b'],
    ['a token that is neither a key nor a JWT', 'Bearer not-a-token'],
    ['a JWT of two parts', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30'],
  ])('malformed: %s', async (_label, authorization) => {
    await expect401(authorization, 'malformed');
  });

  it('expired: an ID token of the issuer past its exp', async () => {
    await expect401(`Bearer ${await idTokenFor(owner, -60)}`, 'expired');
  });

  it('invalid: unknown, revoked and forged credentials read the same', async () => {
    const { key, key_id } = await createApiKey(db, { orgId: org, scopes: ['users:read'] }, new Date());
    expect((await call(runtime.apiUrl, 'GET', usersPath, { token: key })).status).toBe(200);
    await revokeApiKey(db, key_id, new Date());
    const { generateKeyPair, SignJWT } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ email: owner.email, email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: (await idp()).jwks.keys[0].kid! })
      .setIssuer(runtime.issuer)
      .setAudience(runtime.audience)
      .setSubject(`local|${owner.id}`)
      .setExpirationTime('-1m')
      .sign(privateKey);
    const unknown = `pk_org_${unique()}${'f'.repeat(24)}`;
    for (const token of [unknown, key, forged]) await expect401(`Bearer ${token}`, 'invalid');
    const bodies = await Promise.all(
      [unknown, key].map(async (token) => (await raw('GET', usersPath, { headers: { authorization: `Bearer ${token}` } })).text),
    );
    expect(bodies[0]).toBe(bodies[1]);
  });

  it("echoes the request's correlation id on a 401", async () => {
    const res = await raw('GET', usersPath, { headers: { authorization: 'Bearer nope', [GATEWAY.correlationHeader]: 'trace-401' } });
    expect(res.status).toBe(401);
    expect(res.headers[GATEWAY.correlationHeader]).toBe('trace-401');
  });
});

describe('query parameters named like Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '?%s=… reaches the handler as a parameter (400 unknown parameter), not a 502',
    async (name) => {
      const res = await raw('GET', `${usersPath}?${name}=1&${name}=2`, { headers: { authorization: `Bearer ${orgKey}` } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expect.objectContaining({ success: false, data: null, error: expect.any(String) }));
      expect(res.headers[GATEWAY.correlationHeader]).toBeDefined();
    },
  );
});

describe('bad percent-encoding in the path', () => {
  it.each([`/api/v1/organization/%ZZ/users`, `/api/v1/organization/${org}/users/%E0%A4%A/settings`, '/api/v1/organization/%/users'])(
    '%s is 400 BAD_REQUEST in the envelope, before any authorizer',
    async (path) => {
      expectEnvelope(await raw('GET', path, { headers: { authorization: `Bearer ${orgKey}` } }), 400, 'BAD_REQUEST');
      expectEnvelope(await raw('GET', path), 400, 'BAD_REQUEST');
    },
  );
});

describe("API Gateway's request limits, answered in the envelope", () => {
  const { limits } = GATEWAY;

  it('a request target over the URL limit is 414 (also past Node’s 16 KB default)', async () => {
    for (const length of [limits.urlCharacters + 1, 20_000]) {
      const path = `/health?pad=${'x'.repeat(length - '/health?pad='.length)}`;
      expectEnvelope(await raw('GET', path), 414, 'BAD_REQUEST');
    }
    expect((await raw('GET', `/health?pad=${'x'.repeat(limits.urlCharacters - '/health?pad='.length - 1)}`)).status).not.toBe(414);
  });

  it('header values over the limit are 431, also far past what Node parses by default', async () => {
    for (const size of [limits.headerValueBytes + 1, 20_000, 300_000]) {
      const res = await raw('GET', '/health', { headers: { 'x-pad': 'x'.repeat(size) } });
      expectEnvelope(res, 431, 'BAD_REQUEST');
    }
    expect((await raw('GET', '/health', { headers: { 'x-pad': 'x'.repeat(limits.headerValueBytes - 200) } })).status).toBe(200);
  });

  it('a body over the 10 MB payload limit is 413 REQUEST_TOO_LARGE, announced or chunked', async () => {
    const headers = { authorization: `Bearer ${orgKey}`, 'content-type': 'application/json' };
    const settings = `/api/v1/organization/${org}/users/${owner.id}/settings`;
    const announced = await raw('PATCH', settings, { headers, body: Buffer.alloc(limits.payloadBytes + 1, 0x20) });
    expectEnvelope(announced, 413, 'REQUEST_TOO_LARGE');
    const chunks = Array.from({ length: 11 }, () => Buffer.alloc(1024 * 1024, 0x20));
    const chunked = await raw('PATCH', settings, { headers: { ...headers, 'transfer-encoding': 'chunked' }, chunks });
    expectEnvelope(chunked, 413, 'REQUEST_TOO_LARGE');
  });

  it('a client still sending a large body to a request refused early reads the answer (no EPIPE)', async () => {
    const body = Buffer.alloc(9 * 1024 * 1024, 0x20);
    const headers = { 'content-type': 'application/json' };
    expectEnvelope(await raw('PATCH', '/api/v1/nowhere', { headers, body }), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await raw('PATCH', `/api/v1/organization/${org}/users/${owner.id}/settings`, { headers, body }), 401, 'UNAUTHORIZED');
    expectEnvelope(await raw('PATCH', '/api/v1/organization/%ZZ/users/x/settings', { headers, body }), 400, 'BAD_REQUEST');
  });

  it('a request line Node refuses, sent with a large body, still gets its 400 (no EPIPE)', async () => {
    const { connect } = await import('node:net');
    const body = Buffer.alloc(9 * 1024 * 1024, 0x20);
    const head = Buffer.concat([
      Buffer.from('POST /api/v1/organization/org_x'),
      Buffer.from([0xa0]),
      Buffer.from(
        `/recordings/rec/restore HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
    ]);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(api.port), api.hostname, () => socket.end(Buffer.concat([head, body])));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('a request Node cannot parse is 400 in the envelope, not a bare status line', async () => {
    const { connect } = await import('node:net');
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(api.port), api.hostname, () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let received = '';
      socket.on('data', (chunk) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(head).toMatch(new RegExp(`\\r\\n${GATEWAY.correlationHeader}: \\S+`, 'i'));
    expect(JSON.parse(body)).toEqual({ success: false, data: null, error: 'BAD_REQUEST', message: expect.any(String) });
  });
});

describe('CORS preflights, answered as the stack configures them', () => {
  const methodsOf = (template: string) =>
    listEndpoints()
      .filter((e) => e.path === template)
      .map((e) => e.method);
  const preflight = (path: string) =>
    raw('OPTIONS', path, {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });

  it.each([
    ['/api/v1/organization/{orgId}/users', usersPath],
    ['/api/v1/organization/{orgId}/users/{userId}/settings', `/api/v1/organization/${org}/users/${owner.id}/settings`],
    ['/api/v1/public/users', '/api/v1/public/users'],
    ['/health', '/health'],
  ])('%s: 204 with the allowed origin, methods, headers and max age, and no credential needed', async (template, path) => {
    expect(methodsOf(template).length).toBeGreaterThan(0);
    const res = await preflight(path);
    expect(res.status).toBe(GATEWAY.cors.preflightStatusCode);
    expect(res.text).toBe('');
    for (const [name, value] of Object.entries(corsPreflightHeaders(methodsOf(template))))
      expect({ name, value: res.headers[name] }).toEqual({ name, value });
    expect(res.headers[GATEWAY.correlationHeader]).toBeDefined();
  });

  it('an OPTIONS request on a path that serves no route is 404', async () => {
    expectEnvelope(await preflight('/api/v1/nowhere'), 404, 'ROUTE_NOT_FOUND');
  });
});

describe('correlation ids, unknown routes and /health', () => {
  const get = (path: string, token?: string, headers?: Record<string, string>) => call(runtime.apiUrl, 'GET', path, { token, headers });

  it('echoes a sent x-correlation-id and makes one up otherwise, on success and failure', async () => {
    const sent = await get(usersPath, orgKey, { 'x-correlation-id': 'corr-123' });
    expect(sent.headers.get('x-correlation-id')).toBe('corr-123');
    const made = await get(`${usersPath}?limit=0`, orgKey);
    expect(made.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await get('/api/v1/public/users');
    expect(refused.headers.get('x-correlation-id')).toBeTruthy();
    const unsafe = await get(usersPath, orgKey, { 'x-correlation-id': 'a b<script>alert(1)</script>' });
    expect(unsafe.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown paths and methods with 404 ROUTE_NOT_FOUND', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing'],
      ['POST', '/api/v1/public/users'],
      ['GET', `${usersPath}/extra/deep`],
    ]) {
      const res = await call(runtime.apiUrl, method, path, { token: orgKey });
      expect(res.status).toBe(404);
      // Exactly the envelope: no operation of the document answers these, so the contract check does not see them.
      expect(res.body).toEqual({ success: false, data: null, error: 'ROUTE_NOT_FOUND', message: expect.any(String) });
    }
  });

  it('serves GET /health without credentials', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
