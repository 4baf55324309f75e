import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, RateLimitedError, ValidationError } from '../../shared/core/errors';
import type { HttpContext, HttpMiddleware } from '../../shared/http/http-context';
import { authorizationContext } from '../../shared/http/middlewares/authorization-context';
import { correlationId } from '../../shared/http/middlewares/correlation-id';
import { corsHeaders } from '../../shared/http/middlewares/cors-headers';
import { errorResponse } from '../../shared/http/middlewares/error-response';
import { jsonBodyParser } from '../../shared/http/middlewares/json-body';
import { routePolicy } from '../../shared/http/middlewares/route-policy';
import { routeRequest } from '../../shared/http/middlewares/route-request';
import { tenantRateLimit } from '../../shared/http/middlewares/tenant-rate-limit';
import { ROUTES } from '../../shared/routes/manifest';
import type { TenantLimiter } from '../../shared/domain/rate-limits/tenant-limiter';
import { principalToContext, type Principal } from '../../shared/auth/principal';
import { logger } from '../../shared/observability/logger';
import type { TableContext } from '../../shared/storage/dynamo';

/** The part of middy's request object the middlewares touch. */
interface TestRequest {
  event: APIGatewayProxyEvent;
  context: HttpContext;
  response: APIGatewayProxyResult | undefined;
  error: Error | null;
  internal: Record<string, unknown>;
}

function requestFor(event: Partial<APIGatewayProxyEvent> = {}): TestRequest {
  return {
    event: {
      headers: {},
      requestContext: { requestId: 'api-req-1' },
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: null,
      ...event,
    } as APIGatewayProxyEvent,
    context: {} as HttpContext,
    response: undefined,
    error: null,
    internal: {},
  };
}

/** Runs one hook of a middleware the way middy does (the request object is shared). */
async function run(middleware: HttpMiddleware, hook: 'before' | 'after' | 'onError', request: TestRequest): Promise<void> {
  const fn = middleware[hook];
  if (!fn) throw new Error(`middleware has no ${hook}`);
  await fn(request as never);
}

/** The error a `before` hook throws (fails the test when it throws none). */
async function refusal(middleware: HttpMiddleware, request: TestRequest): Promise<ApiError> {
  try {
    await run(middleware, 'before', request);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the middleware to refuse the request');
}

const ORG_KEY: Principal = { kind: 'org_key', orgId: 'org_1', keyId: 'key_1', scopes: ['users:read'] };

describe('correlationId()', () => {
  afterEach(() => logger.resetKeys());

  it('keeps a sane client id, puts it on the log lines and returns it on the response', async () => {
    const request = requestFor({ headers: { 'X-Correlation-Id': 'client-42' } });
    await run(correlationId('listUsers'), 'before', request);
    expect(request.context.correlationId).toBe('client-42');
    expect(logger.getCorrelationId()).toBe('client-42');
    request.response = { statusCode: 200, body: '{}', headers: { 'content-type': 'application/json' } };
    await run(correlationId('listUsers'), 'after', request);
    expect(request.response.headers).toEqual({ 'content-type': 'application/json', 'x-correlation-id': 'client-42' });
  });

  it('replaces an id that is not a sane token with a new one', async () => {
    const request = requestFor({ headers: { 'x-correlation-id': 'a b\nc' } });
    await run(correlationId('listUsers'), 'before', request);
    expect(request.context.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the id on an error response too', async () => {
    const request = requestFor();
    await run(correlationId('listUsers'), 'before', request);
    request.response = { statusCode: 500, body: '{}' };
    await run(correlationId('listUsers'), 'onError', request);
    expect(request.response.headers?.['x-correlation-id']).toBe(request.context.correlationId);
  });
});

describe('corsHeaders()', () => {
  it('adds the CORS headers to successful and error responses alike', async () => {
    for (const hook of ['after', 'onError'] as const) {
      const request = requestFor();
      request.response = { statusCode: hook === 'after' ? 200 : 404, body: '{}' };
      await run(corsHeaders(), hook, request);
      expect(request.response.headers).toEqual(
        expect.objectContaining({
          'access-control-allow-origin': '*',
          'access-control-expose-headers':
            'x-correlation-id,idempotent-replayed,retry-after,ratelimit-limit,ratelimit-remaining,ratelimit-reset',
        }),
      );
    }
  });
});

describe('errorResponse()', () => {
  const envelope = async (error: Error) => {
    const request = requestFor();
    request.error = error;
    await run(errorResponse(), 'onError', request);
    return { status: request.response?.statusCode, body: JSON.parse(request.response?.body ?? 'null') };
  };

  it('maps an ApiError to its status, code and message', async () => {
    expect(await envelope(new ApiError(409, 'INVITE_PENDING', 'Already invited.'))).toEqual({
      status: 409,
      body: { success: false, data: null, error: 'INVITE_PENDING', message: 'Already invited.' },
    });
  });

  it('gives a 429 of the rate limiter its Retry-After and RateLimit-* headers', async () => {
    const request = requestFor();
    request.error = new RateLimitedError('RATE_LIMITED', 'Organization org_a is over its rate limit.', 3, 50);
    await run(errorResponse(), 'onError', request);
    expect(request.response).toMatchObject({
      statusCode: 429,
      headers: {
        'content-type': 'application/json',
        'retry-after': '3',
        'ratelimit-limit': '50',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '3',
      },
    });
    expect(JSON.parse(request.response!.body)).toEqual({
      success: false,
      data: null,
      error: 'RATE_LIMITED',
      message: 'Organization org_a is over its rate limit.',
    });
  });

  it('adds the field details of a 400', async () => {
    const { body } = await envelope(ValidationError.field('limit', 'out_of_range', 'must be an integer between 1 and 100'));
    expect(body.details).toEqual([{ field: 'limit', issue: 'out_of_range', message: 'must be an integer between 1 and 100' }]);
  });

  it('answers anything else with 500 INTERNAL_ERROR and no internal detail', async () => {
    const { status, body } = await envelope(new TypeError('Cannot read properties of undefined (reading secret_table)'));
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      data: null,
      error: 'INTERNAL_ERROR',
      message: 'An unexpected error occurred; it has been logged.',
    });
  });
});

describe('jsonBodyParser()', () => {
  it('parses a JSON body with no content type, a JSON one and a +json one', async () => {
    for (const headers of [{}, { 'Content-Type': 'application/json; charset=utf-8' }, { 'content-type': 'application/merge-patch+json' }]) {
      const request = requestFor({ headers, body: '{"a":1}' });
      await run(jsonBodyParser(), 'before', request);
      expect(request.context.jsonBody).toEqual({ a: 1 });
    }
  });

  it('decodes a base64 body', async () => {
    const request = requestFor({ body: Buffer.from('{"b":2}').toString('base64'), isBase64Encoded: true });
    await run(jsonBodyParser(), 'before', request);
    expect(request.context.jsonBody).toEqual({ b: 2 });
  });

  it('refuses another media type with 415 and text that is not JSON with 400', async () => {
    expect((await refusal(jsonBodyParser(), requestFor({ headers: { 'content-type': 'text/plain' }, body: '{}' }))).code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect((await refusal(jsonBodyParser(), requestFor({ body: '{"a":' }))).code).toBe('INVALID_JSON');
  });
});

describe('authorizationContext()', () => {
  it('reads the principal the authorizer put in the request context', async () => {
    const request = requestFor({ requestContext: { authorizer: principalToContext(ORG_KEY) } as never });
    await run(authorizationContext(), 'before', request);
    expect(request.context.principal).toEqual(ORG_KEY);
  });

  it('answers 401 when there is none or it is malformed', async () => {
    expect((await refusal(authorizationContext(), requestFor())).statusCode).toBe(401);
    const malformed = requestFor({ requestContext: { authorizer: { kind: 'org_key' } } as never });
    expect((await refusal(authorizationContext(), malformed)).statusCode).toBe(401);
  });
});

describe('routeRequest()', () => {
  const settingsPath = '/api/v1/organization/{orgId}/users/{userId}/settings';

  it('validates path, query and body with the route schemas onto context.input', async () => {
    const request = requestFor({
      resource: settingsPath,
      pathParameters: { orgId: 'org_demo', userId: 'usr_1' },
      queryStringParameters: { include_profile: 'true' },
    });
    await run(routeRequest(ROUTES.getMemberSettings), 'before', request);
    expect(request.context.input).toEqual(
      expect.objectContaining({ path: { orgId: 'org_demo', userId: 'usr_1' }, requestedOrgId: 'org_demo', body: undefined }),
    );
  });

  it('refuses a path id of the wrong shape, an unknown parameter and a repeated one', async () => {
    const badId = requestFor({ resource: settingsPath, pathParameters: { orgId: 'org demo', userId: 'usr_1' } });
    expect(await refusal(routeRequest(ROUTES.getMemberSettings), badId)).toMatchObject({
      statusCode: 400,
      details: [expect.objectContaining({ field: 'orgId' })],
    });
    const unknown = requestFor({
      resource: settingsPath,
      pathParameters: { orgId: 'o', userId: 'u' },
      queryStringParameters: { includ_profile: 'true' },
    });
    expect(await refusal(routeRequest(ROUTES.getMemberSettings), unknown)).toMatchObject({
      details: [expect.objectContaining({ field: 'includ_profile' })],
    });
    const repeated = requestFor({
      resource: '/api/v1/organization/{orgId}/users',
      pathParameters: { orgId: 'o' },
      queryStringParameters: { limit: '2' },
      multiValueQueryStringParameters: { limit: ['1', '2'] },
    });
    expect(await refusal(routeRequest(ROUTES.listUsers), repeated)).toMatchObject({
      details: [{ field: 'limit', issue: 'repeated', message: expect.any(String) }],
    });
  });

  it('takes org_id out of a public alias query as the requested organization', async () => {
    const request = requestFor({ resource: '/api/v1/public/users', queryStringParameters: { org_id: 'org_demo', limit: '5' } });
    await run(routeRequest(ROUTES.listUsers), 'before', request);
    expect(request.context.input).toEqual(
      expect.objectContaining({ requestedOrgId: 'org_demo', query: expect.not.objectContaining({ org_id: expect.anything() }) }),
    );
  });
});

describe('routePolicy()', () => {
  // Org keys are checked against the route and the path without a read, so no table is reached.
  const noTable = () =>
    ({
      client: {
        send: () => {
          throw new Error('the policy of an org key reads no table');
        },
      },
      tableName: 'none',
    }) as unknown as TableContext;
  const policed = async (
    routeName: 'listUsers' | 'acceptInvite',
    principal: Principal,
    pathParameters: Record<string, string>,
    resource: string,
  ) => {
    const request = requestFor({ resource, pathParameters });
    request.context.principal = principal;
    if (routeName === 'acceptInvite') request.context.jsonBody = { token: 'an-invitation-token' };
    await run(routeRequest(ROUTES[routeName]), 'before', request);
    await run(routePolicy(noTable), 'before', request);
    return request.context;
  };

  it('gives the authorized caller of an organization route', async () => {
    const context = await policed('listUsers', ORG_KEY, { orgId: 'org_1' }, '/api/v1/organization/{orgId}/users');
    expect(context.caller).toEqual({ kind: 'org_key', orgId: 'org_1', keyId: 'key_1', scopes: ['users:read'], actor: 'key_1' });
  });

  it('refuses a key of another organization with 403', async () => {
    await expect(policed('listUsers', ORG_KEY, { orgId: 'org_2' }, '/api/v1/organization/{orgId}/users')).rejects.toMatchObject({
      statusCode: 403,
      code: 'ORG_KEY_ORG_MISMATCH',
    });
  });

  it('checks only the credential kind on an orgless route, and leaves no caller', async () => {
    await expect(policed('acceptInvite', ORG_KEY, {}, '/api/v1/organization/invites/accept')).rejects.toMatchObject({
      statusCode: 403,
      code: 'API_KEY_NOT_ALLOWED',
    });
    const idToken: Principal = { kind: 'id_token', issuer: 'https://issuer.example.com', subject: 's', emailVerified: true };
    expect((await policed('acceptInvite', idToken, {}, '/api/v1/organization/invites/accept')).caller).toBeUndefined();
  });
});

describe('tenantRateLimit()', () => {
  const orgKey: Principal = { kind: 'org_key', orgId: 'org_a', keyId: 'key_1', scopes: ['users:read'], rateLimit: { rate: 1, burst: 2 } };
  const member: Principal = { kind: 'id_token', userId: 'usr_1', issuer: 'https://issuer.example', subject: 's', emailVerified: true };
  const limiterThat = (admit: TenantLimiter['admit']) => {
    const calls: Parameters<TenantLimiter['admit']>[0][] = [];
    return { calls, limiter: () => ({ admit: (subject: Parameters<TenantLimiter['admit']>[0]) => (calls.push(subject), admit(subject)) }) };
  };

  it("counts a key's request against its organization and its own limit, and puts the status in the RateLimit-* headers, errors included", async () => {
    const { calls, limiter } = limiterThat(async () => ({ limit: 2, remaining: 1, resetSeconds: 3 }));
    const { forKey } = tenantRateLimit(limiter, () => undefined);
    const request = requestFor();
    request.context.principal = orgKey;
    await run(forKey, 'before', request);
    expect(calls).toEqual([{ orgId: 'org_a', key: { id: 'key_1', limit: { rate: 1, burst: 2 } } }]);
    request.response = { statusCode: 404, body: '{}' };
    await run(forKey, 'onError', request);
    expect(request.response.headers).toEqual({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '3' });
  });

  it('counts an ID token only once the policy named its organization, and never at the key stage', async () => {
    const { calls, limiter } = limiterThat(async () => ({ limit: 50, remaining: 49, resetSeconds: 2 }));
    const { forKey, forMember } = tenantRateLimit(limiter, () => undefined);
    const request = requestFor();
    request.context.principal = member;
    await run(forKey, 'before', request);
    expect(calls).toEqual([]);
    request.context.caller = { kind: 'id_token', orgId: 'org_b', userId: 'usr_1', role: 'member', actor: 'usr_1' };
    await run(forMember, 'before', request);
    expect(calls).toEqual([{ orgId: 'org_b' }]);
  });

  it('counts a refusal in RequestsRateLimited and lets it reach the error mapping; a limiter that cannot count lets the request through, counted in RateLimiterUnavailable', async () => {
    const counted: string[] = [];
    const refusing = tenantRateLimit(
      limiterThat(async () => Promise.reject(new RateLimitedError('RATE_LIMITED', 'over', 2, 50))).limiter,
      (metric) => void counted.push(metric),
    );
    const request = requestFor();
    request.context.principal = orgKey;
    await expect(run(refusing.forKey, 'before', request)).rejects.toBeInstanceOf(RateLimitedError);
    const failing = tenantRateLimit(
      limiterThat(async () => Promise.reject(new Error('ProvisionedThroughputExceededException'))).limiter,
      (metric) => void counted.push(metric),
    );
    const passed = requestFor();
    passed.context.principal = orgKey;
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    await run(failing.forKey, 'before', passed);
    expect(passed.context.rateLimit).toBeUndefined();
    expect(logged).toHaveBeenCalledWith('rate limiter unavailable: request let through', expect.objectContaining({ org_id: 'org_a' }));
    logged.mockRestore();
    expect(counted).toEqual(['RequestsRateLimited', 'RateLimiterUnavailable']);
  });
});
