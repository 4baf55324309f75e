import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import {
  correlationIdFrom,
  corsPreflightHeaders,
  GATEWAY,
  renderGatewayResponse,
  type GatewayResponseType,
} from '../../shared/http/gateway';
import { createPathMatcher } from '../../shared/http/path-template';
import { listEndpoints } from '../../shared/routes/manifest';
import type { Endpoint } from '../../shared/routes/route-definition';
import { lambdaContext, methodArnFor, proxyEvent, tokenAuthorizerEvent } from './lambda-events';

const RAW = Symbol('raw response');

/** A response of an extra route that is not JSON (the docs page's HTML), with another status or more headers if given. */
export function rawResponse(
  contentType: string,
  body: string,
  options: { statusCode?: number; headers?: Record<string, string> } = {},
): { [RAW]: true; contentType: string; body: string; statusCode?: number; headers?: Record<string, string> } {
  return { [RAW]: true, contentType, body, ...options };
}

function extraResponse(value: unknown): APIGatewayProxyResult {
  if (typeof value === 'object' && value !== null && RAW in value) {
    const raw = value as ReturnType<typeof rawResponse>;
    return { statusCode: raw.statusCode ?? 200, headers: { ...raw.headers, 'content-type': raw.contentType }, body: raw.body };
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
   * page, the invitation accept page): a JSON value, or a `rawResponse` for another content type;
   * a route may read the request's URL (its query) and answer asynchronously.
   */
  extraRoutes?: Record<string, (url: URL) => unknown>;
  stage?: string;
}

/**
 * How much request line and headers Node's parser accepts (its default is 16 KiB): far above
 * API Gateway's limits (GATEWAY.limits) so that this emulator, not Node, answers requests
 * over them. Beyond it, the clientError handler still answers in the envelope.
 */
const NODE_MAX_HEADER_BYTES = 256 * 1024;

/** A request that failed before any route ran, answered with a gateway response. */
class GatewayRefusal extends Error {
  constructor(
    readonly type: GatewayResponseType,
    readonly statusCode: number,
  ) {
    super(type);
  }
}

/**
 * Emulates API Gateway's REST API with Lambda proxy integration for every endpoint of
 * the route manifest: request limits, path matching, CORS preflights, the TOKEN authorizer
 * (its per-token cache, its Allow or Deny, the 401 gateway responses), the proxy event shape
 * AWS sends, and the handler's proxy result written back as the HTTP response. Everything it
 * answers itself is a gateway response of shared/http/gateway.ts, as the stack configures
 * them, and carries x-correlation-id.
 */
export function createApiGateway(options: ApiGatewayOptions): http.Server {
  const stage = options.stage ?? 'local';
  // Each path template is one API Gateway resource with its methods, in manifest order (as
  // infra/constructs/api.ts adds them: the preflight of a path answers with that list).
  const endpointsByPath = new Map<string, Endpoint[]>();
  for (const endpoint of listEndpoints()) endpointsByPath.set(endpoint.path, [...(endpointsByPath.get(endpoint.path) ?? []), endpoint]);
  const matchResource = createPathMatcher(endpointsByPath.keys());
  // A handler module as tsx loads it: ES exports, or CommonJS ones under default.
  type HandlerModule = { handler?: ProxyHandler; default?: { handler?: ProxyHandler } };
  const handlers = new Map<string, Promise<ProxyHandler>>();
  const loadHandler = (module: string) => {
    if (!handlers.has(module)) {
      handlers.set(
        module,
        import(path.join(options.repoRoot, module)).then((m: HandlerModule) => (m.handler ?? m.default?.handler) as ProxyHandler),
      );
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
      // API Gateway caches the policy, Allow or Deny alike, but not a thrown error.
      if (options.authorizerCacheSeconds > 0) {
        authorizerCache.set(token, { result, expiresAt: Date.now() + options.authorizerCacheSeconds * 1000 });
      }
      return result;
    } catch (error) {
      return (error as Error).message === 'Unauthorized' ? 'UNAUTHORIZED' : 'DEFAULT_5XX';
    }
  }

  async function handle(
    request: http.IncomingMessage,
    send: (result: APIGatewayProxyResult) => Promise<void>,
    headers: Record<string, string>,
  ) {
    const started = Date.now();
    const sendGateway = (type: GatewayResponseType, failureStatusCode: number, context?: Record<string, unknown> | null) =>
      send(renderGatewayResponse(type, failureStatusCode, context));

    refuseOverLimits(request);
    const url = parseTarget(request.url);
    const extra = request.method === 'GET' ? options.extraRoutes?.[url.pathname] : undefined;
    if (extra) return send(extraResponse(await extra(url)));

    // As API Gateway: the path selects the resource, then the resource's method is looked up.
    const resource = matchResource(url.pathname);
    const served = resource ? (endpointsByPath.get(resource.template) ?? []) : [];
    if (request.method === 'OPTIONS' && served.length) {
      return send({ statusCode: GATEWAY.cors.preflightStatusCode, headers: corsPreflightHeaders(served.map((e) => e.method)), body: '' });
    }
    const endpoint = served.find((e) => e.method === request.method);
    if (!resource || !endpoint) return sendGateway('MISSING_AUTHENTICATION_TOKEN', 404);
    const params = Object.fromEntries(Object.entries(resource.params).map(([name, raw]) => [name, decodePathSegment(raw)]));
    const methodArn = methodArnFor(stage, endpoint.method, url.pathname);

    let authorizerContext: Record<string, unknown> | null = null;
    if (endpoint.route.access !== 'public') {
      // The stack sets no identity validation expression: only an absent header is refused here.
      const token = headers.authorization;
      if (!token) return sendGateway('UNAUTHORIZED', 401);
      const result = await authorize(token, methodArn);
      if (typeof result === 'string') return sendGateway(result, result === 'UNAUTHORIZED' ? 401 : 500);
      if (!allows(result, methodArn)) return sendGateway('ACCESS_DENIED', 403, result.context);
      authorizerContext = { ...result.context, principalId: result.principalId, integrationLatency: Date.now() - started };
    }

    const body = await readBody(request);
    const event = proxyEvent({ request, url, headers, body, endpoint, params, stage, authorizerContext, calledPath: url.pathname });
    const handler = await loadHandler(endpoint.route.handler);
    const result = await handler(event, lambdaContext(endpoint.routeName));
    if (!result || typeof result.statusCode !== 'number') return sendGateway('DEFAULT_5XX', 502);
    return send(result);
  }

  const serve = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const headers = singleValueHeaders(request.headers);
    const correlationId = correlationIdFrom(headers[GATEWAY.correlationHeader]);
    // Every answer waits for the request's body to be read (or dropped): a client still
    // sending one, to a route that refused it early, then reads the answer instead of meeting
    // a closed connection (EPIPE).
    const send = async (result: APIGatewayProxyResult) => {
      await bodyDropped(request);
      writeResult(response, result, correlationId);
    };
    try {
      await handle(request, send, headers);
    } catch (error) {
      if (error instanceof GatewayRefusal) return send(renderGatewayResponse(error.type, error.statusCode));
      console.error('local gateway: handler failed', error);
      if (!response.headersSent) await send(renderGatewayResponse('DEFAULT_5XX', 502));
      else response.destroy();
    }
  };
  const server = http.createServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES }, (request, response) => void serve(request, response));
  // Requests Node cannot even parse (headers over NODE_MAX_HEADER_BYTES, a broken request
  // line): Node's own answer would be a bare status with no body and no correlation id.
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const { statusCode, headers, body } = renderGatewayResponse('DEFAULT_4XX', status);
    const lines = [
      `HTTP/1.1 ${statusCode} ${http.STATUS_CODES[statusCode] ?? ''}`,
      ...Object.entries({
        ...headers,
        [GATEWAY.correlationHeader]: randomUUID(),
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      }).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
    // Node keeps reading the socket and reports each later chunk (the rest of the refused
    // request, such as its body) as another client error: those are dropped, not answered by a
    // reset, so the client reads this answer. The socket closes once the client is done, or soon.
    answered.add(socket);
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
  return server;
}

/**
 * API Gateway's request limits (GATEWAY.limits), checked before anything else runs: a body
 * announced over the payload limit is refused before it is read.
 */
function refuseOverLimits(request: http.IncomingMessage): void {
  const { limits } = GATEWAY;
  if ((request.url ?? '').length > limits.urlCharacters) throw new GatewayRefusal('DEFAULT_4XX', 414);
  let headerBytes = 0;
  for (let i = 1; i < request.rawHeaders.length; i += 2) headerBytes += Buffer.byteLength(request.rawHeaders[i], 'utf8');
  if (headerBytes > limits.headerValueBytes) throw new GatewayRefusal('DEFAULT_4XX', 431);
  if (Number(request.headers['content-length'] ?? 0) > limits.payloadBytes) throw new GatewayRefusal('REQUEST_TOO_LARGE', 413);
}

/** The request target as a URL; a target that is no URL, or a path with broken percent-encoding, is a 400. */
function parseTarget(target: string | undefined): URL {
  try {
    const url = new URL(target ?? '/', 'http://localhost');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    throw new GatewayRefusal('DEFAULT_4XX', 400);
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new GatewayRefusal('DEFAULT_4XX', 400);
  }
}

function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const matches = (resource: string | string[]) =>
    [resource].flat().some((r) => new RegExp(`^${r.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(methodArn));
  const applies = statements.filter((s) => 'Resource' in s && matches(s.Resource as string | string[]));
  return applies.some((s) => s.Effect === 'Allow') && !applies.some((s) => s.Effect === 'Deny');
}

/** Reads what is left of a request's body and drops it; resolves once the request has ended. */
async function bodyDropped(request: http.IncomingMessage): Promise<void> {
  if (request.readableEnded || request.destroyed) return;
  request.resume();
  await new Promise<void>((resolve) => {
    request.once('end', resolve);
    request.once('close', resolve);
    request.once('error', () => resolve());
  });
}

function singleValueHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(',') : value]],
    ),
  );
}

/**
 * The body, refused past the payload limit (a chunked body announces no length up front).
 * The stream keeps flowing after a refusal so the rest is read and dropped, not reset.
 */
function readBody(request: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (!chunks) return;
      if (bytes <= GATEWAY.limits.payloadBytes) return void chunks.push(chunk);
      chunks = undefined;
      reject(new GatewayRefusal('REQUEST_TOO_LARGE', 413));
    });
    request.on('end', () => chunks && resolve(chunks.length ? Buffer.concat(chunks).toString('utf8') : null));
    request.on('error', reject);
  });
}

function writeResult(response: http.ServerResponse, result: APIGatewayProxyResult, correlationId: string): void {
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name.toLowerCase()] = values.map(String);
  headers[GATEWAY.correlationHeader] ??= correlationId;
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
  response.writeHead(result.statusCode, { ...headers, 'content-length': String(body.length) });
  response.end(body);
}
