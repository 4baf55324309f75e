import { randomUUID } from 'node:crypto';
import { errorBody } from './responses';

/**
 * What API Gateway itself does before a handler runs, shared by the CDK stack (which
 * configures it) and the local API emulator (which reproduces it).
 */
export const GATEWAY = {
  /** Seconds an authorizer result is cached per token; a revoked key stops working within this. */
  authorizerCacheSeconds: 60,
  /** Requests whose Authorization header does not match are refused before the authorizer runs. */
  authorizationPattern: '^Bearer [^\\s]+$',
  correlationHeader: 'x-correlation-id',
  /**
   * Browsers may call the API from any origin: every credential is a bearer token the page
   * sends explicitly (never a cookie), so a cross-site page holds no credential to reuse.
   * API Gateway answers the preflights; handlers and gateway responses add the response headers.
   */
  cors: {
    allowOrigin: '*',
    allowHeaders: ['authorization', 'content-type', 'x-correlation-id'],
    exposeHeaders: ['x-correlation-id'],
    maxAgeSeconds: 3600,
  },
} as const;

/** The CORS headers of every API response (handlers and gateway responses alike). */
export const CORS_RESPONSE_HEADERS = {
  'access-control-allow-origin': GATEWAY.cors.allowOrigin,
  'access-control-expose-headers': GATEWAY.cors.exposeHeaders.join(','),
} as const;

/** Gateway responses: API Gateway's own failures, in the API's error envelope. */
export const GATEWAY_RESPONSES = {
  UNAUTHORIZED: { statusCode: 401, ...errorBody('UNAUTHORIZED', 'A valid bearer token is required.') },
  ACCESS_DENIED: { statusCode: 403, ...errorBody('ACCESS_DENIED', 'The credential is not allowed to call this route.') },
  /** REST APIs answer an unknown method or path with this type; we make it a 404. */
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, ...errorBody('ROUTE_NOT_FOUND', 'No route matches this method and path.') },
  /** Over the stage's throttling limits. */
  THROTTLED: { statusCode: 429, ...errorBody('TOO_MANY_REQUESTS', 'Too many requests: slow down and retry shortly.') },
  DEFAULT_4XX: { statusCode: undefined, ...errorBody('BAD_REQUEST', 'The request could not be accepted.') },
  DEFAULT_5XX: { statusCode: undefined, ...errorBody('INTERNAL_ERROR', 'The request could not be completed.') },
} as const;

export type GatewayResponseType = keyof typeof GATEWAY_RESPONSES;

/** The request's own correlation id when it sent a usable one, else a new one. */
export function correlationIdFrom(headerValue: string | undefined): string {
  return headerValue && /^[A-Za-z0-9._:-]{1,128}$/.test(headerValue) ? headerValue : randomUUID();
}
