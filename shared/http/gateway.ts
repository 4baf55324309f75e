import { randomUUID } from 'node:crypto';
import { AUTHENTICATION_FAILURE_MESSAGES, AUTHORIZATION_PATTERN } from '../auth/bearer-credentials';
import { errorBody } from './responses';

/**
 * What API Gateway itself does before a handler runs, shared by the CDK stack (which
 * configures it) and the local API emulator (which reproduces it).
 */
export const GATEWAY = {
  /** Seconds an authorizer result is cached per token; a revoked key stops working within this. */
  authorizerCacheSeconds: 60,
  /** A well-formed Authorization header (shared/auth/bearer-credentials.ts). */
  authorizationPattern: AUTHORIZATION_PATTERN,
  correlationHeader: 'x-correlation-id',
  /** Reported in WWW-Authenticate (RFC 6750 §3). */
  realm: 'voice-org-api',
  /**
   * API Gateway's own request limits (REST API quotas, edge-optimized endpoint: the stack's
   * default). A request over them never reaches the authorizer or a handler.
   */
  limits: {
    /** Characters of the request target (path and query). */
    urlCharacters: 8192,
    /** Bytes of all header values together. */
    headerValueBytes: 10_240,
    /** Bytes of the body: 10 MB. */
    payloadBytes: 10 * 1024 * 1024,
  },
  /**
   * Browsers may call the API from any origin: every credential is a bearer token the page
   * sends explicitly (never a cookie), so a cross-site page holds no credential to reuse.
   * API Gateway answers the preflights; handlers and gateway responses add the response headers.
   */
  cors: {
    allowOrigin: '*',
    // Idempotency-Key on POST routes; a replay says so, a key still in progress says when to retry (docs/idempotency.md).
    allowHeaders: ['authorization', 'content-type', 'x-correlation-id', 'idempotency-key'],
    exposeHeaders: ['x-correlation-id', 'idempotent-replayed', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
    maxAgeSeconds: 3600,
    preflightStatusCode: 204,
  },
} as const;

/** The CORS headers of every API response (handlers and gateway responses alike). */
export const CORS_RESPONSE_HEADERS = {
  'access-control-allow-origin': GATEWAY.cors.allowOrigin,
  'access-control-expose-headers': GATEWAY.cors.exposeHeaders.join(','),
} as const;

/**
 * The headers API Gateway's preflight (a MOCK integration on each path, infra/constructs/api.ts) answers
 * with, given the methods the path serves in manifest order.
 */
export function corsPreflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
    'access-control-allow-headers': GATEWAY.cors.allowHeaders.join(','),
    'access-control-allow-origin': GATEWAY.cors.allowOrigin,
    'access-control-allow-methods': methods.join(','),
    'access-control-max-age': String(GATEWAY.cors.maxAgeSeconds),
  };
}

/**
 * Gateway responses: API Gateway's own failures, in the API's error envelope. Templates are
 * not VTL; API Gateway only substitutes variables such as `$context.authorizer.message`.
 */
export const GATEWAY_RESPONSES = {
  /** No Authorization header: API Gateway answers without calling the authorizer. */
  UNAUTHORIZED: { statusCode: 401, ...errorBody('UNAUTHORIZED', AUTHENTICATION_FAILURE_MESSAGES.missing) },
  /**
   * The authorizer's Deny: it refuses a credential with a Deny policy whose context says why
   * (a thrown "Unauthorized" would carry no context), so this is a 401 and not a 403.
   */
  ACCESS_DENIED: { statusCode: 401, ...errorBody('UNAUTHORIZED', '$context.authorizer.message') },
  /** REST APIs answer an unknown method or path with this type; we make it a 404. */
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, ...errorBody('ROUTE_NOT_FOUND', 'No route matches this method and path.') },
  /** A body over the 10 MB payload limit. */
  REQUEST_TOO_LARGE: { statusCode: 413, ...errorBody('REQUEST_TOO_LARGE', 'The request body is over the 10 MB limit.') },
  /** Over the stage's throttling limits. */
  THROTTLED: { statusCode: 429, ...errorBody('TOO_MANY_REQUESTS', 'Too many requests: slow down and retry shortly.') },
  DEFAULT_4XX: { statusCode: undefined, ...errorBody('BAD_REQUEST', 'The request could not be accepted.') },
  DEFAULT_5XX: { statusCode: undefined, ...errorBody('INTERNAL_ERROR', 'The request could not be completed.') },
} as const;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/** Static headers some gateway responses add to the correlation and CORS headers every one has. */
export const GATEWAY_RESPONSE_HEADERS: Partial<Record<GatewayResponseType, Record<string, string>>> = {
  // RFC 6750 §3: no error code when the request carried no credential at all.
  UNAUTHORIZED: { 'www-authenticate': `Bearer realm="${GATEWAY.realm}"` },
  ACCESS_DENIED: { 'www-authenticate': `Bearer realm="${GATEWAY.realm}", error="invalid_token"` },
  // The stage's token bucket refills every second: every 429 tells a client when to come back (docs/rate-limits.md).
  THROTTLED: { 'retry-after': '1' },
};

/** The application/json template of a gateway response, as the stack configures it. */
export function gatewayResponseTemplate(type: GatewayResponseType): string {
  const { statusCode: _statusCode, ...body } = GATEWAY_RESPONSES[type];
  return JSON.stringify(body);
}

/**
 * A gateway response as API Gateway renders it: the configured status (or the one of the
 * failure for the DEFAULT_ types), the static headers, and the template with its
 * `$context.authorizer.<key>` variables substituted (empty when the authorizer set none).
 */
/** An authorizer context value as API Gateway substitutes it: text as is, numbers and booleans written out, anything else empty. */
function contextText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

export function renderGatewayResponse(
  type: GatewayResponseType,
  failureStatusCode: number,
  authorizerContext?: Record<string, unknown> | null,
): { statusCode: number; headers: Record<string, string>; body: string } {
  const body = gatewayResponseTemplate(type).replace(/\$context\.authorizer\.([A-Za-z0-9_]+)/g, (_all, key: string) =>
    authorizerContext && Object.hasOwn(authorizerContext, key) ? contextText(authorizerContext[key]) : '',
  );
  return {
    statusCode: GATEWAY_RESPONSES[type].statusCode ?? failureStatusCode,
    headers: { 'content-type': 'application/json', ...CORS_RESPONSE_HEADERS, ...GATEWAY_RESPONSE_HEADERS[type] },
    body,
  };
}

/** The request's own correlation id when it sent a usable one, else a new one. */
export function correlationIdFrom(headerValue: string | undefined): string {
  return headerValue && /^[A-Za-z0-9._:-]{1,128}$/.test(headerValue) ? headerValue : randomUUID();
}

/** A request header's value whatever the case the client wrote its name in (API Gateway keeps it as sent). */
export function headerValue(headers: Record<string, string | undefined> | null | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
}
