import * as v from 'valibot';
import { openApiDocument } from '../../shared/openapi/document';
import { ERROR_CODES, type ErrorCode } from '../../shared/core/error-codes';
import { isOperation, listEndpoints, ROUTE_DOCS, ROUTES } from '../../shared/routes/manifest';
import { rateLimitHeaders as rateLimitHeaders_ } from '../../shared/core/errors';
import { CORS_RESPONSE_HEADERS } from '../../shared/http/gateway';
import { IDEMPOTENCY_HEADERS } from '../../shared/http/middlewares/idempotency';
import {
  countsAgainstRateLimits,
  takesIdempotencyKey,
  type RouteDefinition,
  type RouteRequest,
} from '../../shared/routes/route-definition';
import { querySchemaOf } from '../../shared/schemas/request-parameters';
import { contractViolation, findOperation } from '../support/contract';

type Json = Record<string, any>;
const document = openApiDocument();
const operations = Object.entries<Json>(document.paths).flatMap(([path, item]) =>
  Object.entries<Json>(item).map(([method, op]) => ({ path, method, op })),
);

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('has an operation for every endpoint of the manifest (aliases included) and no other; the API reference is no operation', () => {
    const endpoints = listEndpoints()
      .filter(isOperation)
      .map((e) => `${e.method.toLowerCase()} ${e.path}`)
      .sort();
    expect(operations.map(({ path, method }) => `${method} ${path}`).sort()).toEqual(endpoints);
  });

  it("documents every route of the manifest but the API reference's own (/docs, its assets, this document)", () => {
    const referenceRoutes = Object.entries(ROUTES)
      .filter(([, route]) => (route as RouteDefinition).reference)
      .map(([name]) => name);
    expect(referenceRoutes.sort()).toEqual(['getDocsAsset', 'getDocsPage', 'getOpenApiDocument']);
    expect(Object.keys(ROUTE_DOCS).sort()).toEqual(
      Object.keys(ROUTES)
        .filter((name) => !referenceRoutes.includes(name))
        .sort(),
    );
  });

  it('declares every path template parameter, and no other path parameter', () => {
    for (const { path, op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name).sort();
      const declared = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort()).toEqual(inPath);
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it('documents path ids with the format the handlers enforce', () => {
    for (const { op } of operations) {
      for (const parameter of ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path')) {
        expect(parameter.schema).toEqual({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', maxLength: 64 });
      }
    }
  });

  it('documents integer query parameters as integers, with the range and default the handlers accept in the query string', () => {
    const integers: string[] = [];
    for (const endpoint of listEndpoints().filter(isOperation)) {
      const op = document.paths[endpoint.path][endpoint.method.toLowerCase()];
      const query = querySchemaOf(endpoint.route);
      for (const { name, schema } of ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.name !== 'org_id')) {
        // No parameter is documented as digits in a string any more: those are the integers below.
        expect({ name, pattern: schema.pattern }).not.toEqual({ name, pattern: '^\\d{1,9}$' });
        if (schema.type !== 'integer') continue;
        integers.push(`${op.operationId}.${name}`);
        expect(schema).toEqual({
          type: 'integer',
          format: 'int32',
          minimum: expect.any(Number),
          maximum: expect.any(Number),
          default: expect.any(Number),
        });
        // Required parameters (Search's q) take the operation's documented example, so only this one varies.
        const required = Object.fromEntries(
          ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(p.example ?? 'x')]),
        );
        const accepts = (text: string) => v.safeParse(query, { ...required, [name]: text }).success;
        // What the query string may hold is unchanged: the range's ends and the default as text, nothing outside.
        expect([schema.minimum, schema.maximum, schema.default].map((n: number) => accepts(String(n)))).toEqual([true, true, true]);
        expect([String(schema.minimum - 1), String(schema.maximum + 1), '1.5', '1e2', ' 1', 'abc', ''].map(accepts)).toEqual([
          false,
          false,
          false,
          false,
          false,
          false,
          false,
        ]);
      }
    }
    expect(integers.length).toBeGreaterThanOrEqual(19);
  });

  it('documents the request schemas the handlers validate with, and 415 wherever a body is taken', () => {
    for (const endpoint of listEndpoints().filter(isOperation)) {
      const op = document.paths[endpoint.path][endpoint.method.toLowerCase()];
      const request: RouteRequest = endpoint.route.request ?? {};
      expect(Boolean(op.requestBody)).toBe(Boolean(request.body));
      expect(Boolean(op.responses['415'])).toBe(Boolean(request.body));
    }
    // The settings PATCH body is the handler's own schema: profile is an object holding profile, as the spec says.
    const patch =
      document.paths['/api/v1/organization/{orgId}/users/{userId}/settings'].patch.requestBody.content['application/json'].schema;
    expect(patch.properties.profile).toEqual(expect.objectContaining({ type: 'object', required: ['profile'] }));
    expect(patch.properties.preferences.items.anyOf).toHaveLength(3);
  });

  it('describes who may accept an invitation as the route allows it: any signed-in user the invitation was sent to', () => {
    const accept = document.paths['/api/v1/organization/invites/accept'].post;
    expect(accept.description).not.toMatch(/role viewer|active members/);
    expect(accept.description).toMatch(/verified email/);
  });

  it('documents the details of a 400', () => {
    expect(document.components.schemas.ErrorEnvelope.properties.details).toEqual(expect.objectContaining({ type: 'array' }));
  });

  it('gives each operation a unique operationId, a summary, responses and parameters unique by name and place', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations) {
      expect(op.summary).toEqual(expect.any(String));
      expect(Object.keys(op.responses).some((status) => /^2\d\d$/.test(status))).toBe(true);
      const params = ((op.parameters ?? []) as Json[]).map((p) => `${p.in}:${p.name}`);
      expect(new Set(params).size).toBe(params.length);
    }
  });

  it('answers every refusal with the error envelope, and secures every route but the public ones', () => {
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue;
        // The envelope, its `error` one of the codes listed for this status, each code one the catalog gives this status.
        const codes: string[] = response['x-error-codes'];
        expect(codes.length).toBeGreaterThan(0);
        const [envelope, narrowed] = response.content['application/json'].schema.allOf;
        expect(envelope).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        expect(narrowed.properties.error.enum).toEqual(codes);
        for (const code of codes) {
          expect({ code, statuses: ERROR_CODES[code as ErrorCode]?.statuses }).toEqual({
            code,
            statuses: expect.arrayContaining([Number(status)]),
          });
          expect(response.description).toContain(`\`${code}\`: ${ERROR_CODES[code as ErrorCode].meaning}`);
        }
      }
      const endpoint = listEndpoints().find((e) => e.path === path && e.method.toLowerCase() === method)!;
      if (endpoint.route.access === 'public') expect(op.security).toEqual([]);
      else {
        expect(op.security.length).toBeGreaterThan(0);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
      }
      for (const requirement of op.security as Json[]) {
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes[scheme]).toBeDefined();
      }
    }
  });

  it("lists every error code of the catalog on some operation, but the operator CLI's", () => {
    const listed = new Set(
      operations.flatMap(({ op }) => Object.values<Json>(op.responses).flatMap((response) => response['x-error-codes'] ?? [])),
    );
    const unlisted = Object.keys(ERROR_CODES).filter((code) => !listed.has(code));
    expect(unlisted.sort()).toEqual([
      'EMAIL_MISMATCH',
      'EMAIL_TAKEN',
      'INVALID_FIXTURE',
      'KEY_EXISTS',
      'MEMBER_EXISTS',
      'ORG_EXISTS',
      'ORG_NOT_FOUND',
      'TAG_EXISTS',
      'USER_EXISTS',
      'USER_NOT_FOUND',
    ]);
    // A code the API answers with is listed, so the rate limiter's are.
    expect([...listed]).toEqual(expect.arrayContaining(['RATE_LIMITED', 'QUOTA_EXCEEDED']));
  });

  it('documents a 429 with Retry-After on every operation, the rate limits (codes, RateLimit-* headers) on every response a counted request may get, replays, and the CORS origin on every response', () => {
    const rateLimitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    const endpoints = listEndpoints().filter(isOperation);
    const endpointOf = (path: string, method: string) => endpoints.find((e) => e.path === path && e.method.toLowerCase() === method)!;
    expect(operations.filter(({ path, method }) => countsAgainstRateLimits(endpointOf(path, method).route)).length).toBe(
      operations.length - 2,
    ); // all but health and accepting an invitation
    const declared = (response: Json, names: string[]) => names.filter((name) => response.headers?.[name]);
    for (const { path, method, op } of operations) {
      const { route } = endpointOf(path, method);
      const counts = countsAgainstRateLimits(route);
      const keyed = takesIdempotencyKey(route);
      const refused = op.responses['429'];
      const label = `${method} ${path}`;
      expect({ label, codes: refused['x-error-codes'], headers: declared(refused, ['Retry-After', ...rateLimitHeaders]) }).toEqual({
        label,
        codes: counts ? ['TOO_MANY_REQUESTS', 'RATE_LIMITED', 'QUOTA_EXCEEDED'] : ['TOO_MANY_REQUESTS'],
        headers: counts ? ['Retry-After', ...rateLimitHeaders] : ['Retry-After'],
      });
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        // Every response, the gateway's included, carries the CORS origin.
        expect({ label, status, cors: declared(response, ['Access-Control-Allow-Origin']) }).toEqual({
          label,
          status,
          cors: ['Access-Control-Allow-Origin'],
        });
        // RateLimit-* on what a counted request may be answered; never on what comes before the count (the gateway, the authorizer, the body parser).
        const codes: string[] = response['x-error-codes'] ?? [];
        const beforeCount =
          codes.length > 0 &&
          codes.every((code) =>
            ['REQUEST_TOO_LARGE', 'BAD_REQUEST', 'UNAUTHORIZED', 'ROUTE_NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE'].includes(code),
          );
        expect({ label, status, headers: declared(response, rateLimitHeaders) }).toEqual({
          label,
          status,
          headers: counts && !beforeCount ? rateLimitHeaders : [],
        });
        if (status.startsWith('2'))
          expect({ label, status, replayed: declared(response, ['Idempotent-Replayed']) }).toEqual({
            label,
            status,
            replayed: keyed ? ['Idempotent-Replayed'] : [],
          });
        if (response['x-error-codes']?.includes('IDEMPOTENCY_KEY_IN_PROGRESS'))
          expect(declared(response, ['Retry-After'])).toEqual(['Retry-After']);
      }
    }
    expect(Object.keys(document.components.headers).sort()).toEqual([
      'Access-Control-Allow-Origin',
      'Idempotent-Replayed',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    // The names the code sends (HTTP header names are case-insensitive): the rate limiter's, the idempotency's, the CORS origin.
    const sent = [
      ...Object.keys(rateLimitHeaders_({ limit: 1, remaining: 0, resetSeconds: 1 })),
      IDEMPOTENCY_HEADERS.replayed,
      'retry-after',
      ...Object.keys(CORS_RESPONSE_HEADERS),
    ];
    expect(
      Object.keys(document.components.headers)
        .map((name) => name.toLowerCase())
        .filter((name) => !sent.includes(name)),
    ).toEqual([]);
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      const target = ref
        .split('/')
        .slice(1)
        .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
      expect(target).toBeDefined();
    }
  });

  it('is plain JSON (serializes and parses back unchanged)', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('contract check', () => {
  it('matches a literal path before a template', () => {
    expect(findOperation('POST', '/api/v1/public/recordings/upload-url')?.template).toBe('/api/v1/public/recordings/upload-url');
    expect(findOperation('GET', '/api/v1/organization/o1/recordings/r1')?.template).toBe(
      '/api/v1/organization/{orgId}/recordings/{recordingId}',
    );
    expect(findOperation('GET', '/local-idp/jwks.json')).toBeUndefined();
  });

  it('accepts a conforming response and refuses an undeclared status or a wrong body', () => {
    expect(contractViolation('GET', '/health', 200, { status: 'ok' })).toBeUndefined();
    expect(
      contractViolation('GET', '/api/v1/organization/o1/templates/t1', 404, {
        success: false,
        data: null,
        error: 'TEMPLATE_NOT_FOUND',
        message: 'gone',
      }),
    ).toBeUndefined();
    expect(contractViolation('GET', '/health', 201, { status: 'ok' })).toMatch(/does not declare/);
    expect(contractViolation('GET', '/health', 200, { status: 'ok', extra: 1 })).toMatch(/does not allow/);
    expect(contractViolation('DELETE', '/api/v1/organization/o1/templates/t1', 200, { success: false })).toMatch(/does not allow/);
  });

  it('refuses a header the document knows on a response that does not declare it', () => {
    const refusal = (error: string) => ({ success: false, data: null, error, message: 'no' });
    const path = '/api/v1/organization/o1/templates/t1';
    expect(
      contractViolation('GET', path, 404, refusal('TEMPLATE_NOT_FOUND'), [
        'RateLimit-Limit',
        'access-control-allow-origin',
        'x-correlation-id',
      ]),
    ).toBeUndefined();
    expect(contractViolation('GET', path, 401, refusal('UNAUTHORIZED'), ['ratelimit-limit', 'ratelimit-reset'])).toMatch(
      /with RateLimit-Limit, RateLimit-Reset, which the OpenAPI document does not declare/,
    );
    expect(contractViolation('GET', '/health', 200, { status: 'ok' }, ['idempotent-replayed'])).toMatch(/Idempotent-Replayed/);
  });

  it('refuses a refusal whose error code the document does not list for the operation and status', () => {
    const refusal = (error: string) => ({ success: false, data: null, error, message: 'no' });
    expect(contractViolation('GET', '/api/v1/organization/o1/templates/t1', 404, refusal('TEMPLATE_NOT_FOUND'))).toBeUndefined();
    expect(contractViolation('GET', '/api/v1/organization/o1/templates/t1', 404, refusal('MEMBER_NOT_FOUND'))).toMatch(
      /does not list for this operation and status \(listed: ROUTE_NOT_FOUND, TEMPLATE_NOT_FOUND\)/,
    );
    expect(contractViolation('GET', '/api/v1/organization/o1/templates/t1', 409, refusal('CONCURRENT_UPDATE'))).toMatch(/does not declare/);
  });
});
