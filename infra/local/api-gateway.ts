import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { correlationIdFrom, GATEWAY, GATEWAY_RESPONSES, type GatewayResponseType } from '../../shared/http/gateway';
import { listEndpoints, type Endpoint } from '../../shared/routes';

const RAW = Symbol('raw response');

/** A response of an extra route that is not JSON (the docs page's HTML). */
export function rawResponse(contentType: string, body: string): { [RAW]: true; contentType: string; body: string } {
  return { [RAW]: true, contentType, body };
}

function extraResponse(value: unknown): APIGatewayProxyResult {
  if (typeof value === 'object' && value !== null && RAW in value) {
    const raw = value as ReturnType<typeof rawResponse>;
    return { statusCode: 200, headers: { 'content-type': raw.contentType }, body: raw.body };
  }
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayTokenAuthorizerEvent, context: Context) => Promise<APIGatewayAuthorizerResult>;

export interface ApiGatewayOptions {
  repoRoot: string;
  authorizerModule: string;
  authorizerCacheSeconds: number;
  /**
   * Extra local-only GET routes (the identity provider's JWKS, the OpenAPI document, the docs
   * page): a JSON value, or a `rawResponse` for another content type.
   */
  extraRoutes?: Record<string, () => unknown>;
  stage?: string;
}

const API_ID = 'local';
const ACCOUNT_ID = '000000000000';
const REGION = 'us-east-1';

/**
 * Emulates API Gateway's REST API with Lambda proxy integration for every endpoint of
 * the route manifest: path matching, the TOKEN authorizer (its identity validation
 * pattern, its per-token cache, 401/403 gateway responses), the proxy event shape AWS
 * sends, and the handler's proxy result written back as the HTTP response.
 */
export function createApiGateway(options: ApiGatewayOptions): http.Server {
  const stage = options.stage ?? 'local';
  const matchers = listEndpoints()
    .map((endpoint) => ({ endpoint, ...compileTemplate(endpoint.path) }))
    // API Gateway prefers literal path segments over {parameters}.
    .sort((a, b) => a.parameterCount - b.parameterCount);
  const handlers = new Map<string, Promise<ProxyHandler>>();
  const loadHandler = (module: string) => {
    if (!handlers.has(module)) {
      handlers.set(module, import(path.join(options.repoRoot, module)).then((m) => (m.handler ?? m.default.handler) as ProxyHandler));
    }
    return handlers.get(module)!;
  };
  const authorizerCache = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();

  async function authorize(token: string, methodArn: string): Promise<APIGatewayAuthorizerResult | GatewayResponseType> {
    const cached = authorizerCache.get(token);
    if (cached && cached.expiresAt > Date.now()) return cached.result;
    const authorizer = (await loadHandler(options.authorizerModule)) as unknown as AuthorizerHandler;
    try {
      const result = await authorizer(tokenAuthorizerEvent(token, methodArn), lambdaContext('authorizer'));
      if (options.authorizerCacheSeconds > 0) {
        authorizerCache.set(token, { result, expiresAt: Date.now() + options.authorizerCacheSeconds * 1000 });
      }
      return result;
    } catch (error) {
      return (error as Error).message === 'Unauthorized' ? 'UNAUTHORIZED' : 'DEFAULT_5XX';
    }
  }

  return http.createServer(async (request, response) => {
    const started = Date.now();
    const url = new URL(request.url ?? '/', 'http://localhost');
    const headers = singleValueHeaders(request.headers);
    const correlationId = correlationIdFrom(headers[GATEWAY.correlationHeader]);
    const send = (result: APIGatewayProxyResult) => writeResult(response, result, correlationId);
    const sendGateway = (type: GatewayResponseType, statusCode?: number) => {
      const { statusCode: configured, ...body } = GATEWAY_RESPONSES[type];
      send({ statusCode: configured ?? statusCode ?? 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    };
    try {
      const extra = request.method === 'GET' ? options.extraRoutes?.[url.pathname] : undefined;
      if (extra) return send(extraResponse(extra()));

      const match = matchers
        .map((m) => ({ endpoint: m.endpoint, params: m.match(request.method ?? 'GET', url.pathname, m.endpoint) }))
        .find((m) => m.params);
      if (!match) return sendGateway('MISSING_AUTHENTICATION_TOKEN');
      const { endpoint, params } = match;
      const methodArn = methodArnFor(stage, endpoint.method, url.pathname);

      let authorizerContext: Record<string, unknown> | null = null;
      if (endpoint.route.access !== 'public') {
        const token = headers.authorization;
        if (!token || !new RegExp(GATEWAY.authorizationPattern).test(token)) return sendGateway('UNAUTHORIZED');
        const result = await authorize(token, methodArn);
        if (typeof result === 'string') return sendGateway(result);
        if (!allows(result, methodArn)) return sendGateway('ACCESS_DENIED');
        authorizerContext = { ...result.context, principalId: result.principalId, integrationLatency: Date.now() - started };
      }

      const body = await readBody(request);
      const event = proxyEvent({ request, url, headers, body, endpoint, params: params!, stage, authorizerContext });
      const handler = await loadHandler(endpoint.route.handler);
      const result = await handler(event, lambdaContext(endpoint.routeName));
      if (!result || typeof result.statusCode !== 'number') return sendGateway('DEFAULT_5XX', 502);
      send(result);
    } catch (error) {
      console.error('local gateway: handler failed', error);
      sendGateway('DEFAULT_5XX', 502);
    }
  });
}

function compileTemplate(template: string) {
  const names: string[] = [];
  const pattern = new RegExp(
    `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_all, name: string) => (names.push(name), '([^/]+)'))}$`,
  );
  return {
    parameterCount: names.length,
    match(method: string, pathname: string, endpoint: Endpoint): Record<string, string> | undefined {
      if (method !== endpoint.method) return undefined;
      const found = pattern.exec(pathname);
      if (!found) return undefined;
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
    },
  };
}

function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const matches = (resource: string | string[]) =>
    [resource].flat().some((r) => new RegExp(`^${r.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(methodArn));
  const applies = statements.filter((s) => 'Resource' in s && matches(s.Resource as string | string[]));
  return applies.some((s) => s.Effect === 'Allow') && !applies.some((s) => s.Effect === 'Deny');
}

function singleValueHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw).flatMap(([name, value]) => (value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(',') : value]])),
  );
}

async function readBody(request: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
}

/** The ARN API Gateway gives a TOKEN authorizer for a request: ...:{api}/{stage}/{METHOD}{path}. */
export function methodArnFor(stage: string, method: string, pathname: string): string {
  return `arn:aws:execute-api:${REGION}:${ACCOUNT_ID}:${API_ID}/${stage}/${method}${pathname}`;
}

/** The event API Gateway sends a TOKEN authorizer. */
export function tokenAuthorizerEvent(authorizationToken: string, methodArn: string): APIGatewayTokenAuthorizerEvent {
  return { type: 'TOKEN', authorizationToken, methodArn };
}

/** The Lambda proxy integration event of a matched request (exported for the sample events of infra/sam). */
export function proxyEvent(input: {
  request: Pick<http.IncomingMessage, 'httpVersion'> & { socket: { remoteAddress?: string } };
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  endpoint: Endpoint;
  params: Record<string, string>;
  stage: string;
  authorizerContext: Record<string, unknown> | null;
}): APIGatewayProxyEvent {
  const { request, url, headers, body, endpoint, params, stage, authorizerContext } = input;
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) (multiQuery[name] ??= []).push(value);
  const now = new Date();
  return {
    resource: endpoint.path,
    path: url.pathname,
    httpMethod: endpoint.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, [v]])),
    // As API Gateway does: the last value of a repeated parameter, null when there are none.
    queryStringParameters: Object.keys(multiQuery).length ? Object.fromEntries(Object.entries(multiQuery).map(([n, v]) => [n, v.at(-1)!])) : null,
    multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
    pathParameters: Object.keys(params).length ? params : null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer: authorizerContext,
      httpMethod: endpoint.method,
      identity: {
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/${stage}${url.pathname}`,
      protocol: `HTTP/${request.httpVersion}`,
      requestId: randomUUID(),
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: endpoint.routeName,
      resourcePath: endpoint.path,
      stage,
    },
  };
}

export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function writeResult(response: http.ServerResponse, result: APIGatewayProxyResult, correlationId: string): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name.toLowerCase()] = values.map(String);
  headers[GATEWAY.correlationHeader] ??= correlationId;
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  response.writeHead(result.statusCode, { ...headers, 'content-length': String(body.length) });
  response.end(body);
}
