import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { headerValue } from './gateway';

/** One representation of a resource that clients may cache: its body, type, cache lifetime and any other header. */
export interface CacheableRepresentation {
  contentType: string;
  body: string;
  /** The Cache-Control header, e.g. `public, max-age=300`. */
  cacheControl: string;
  headers?: Record<string, string>;
}

/**
 * A weak entity tag of a body: weak because API Gateway may compress the response on its way
 * (RestApi minCompressionSize), and a compressed body is not byte-identical to this one.
 */
export function entityTag(body: string): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Whether an If-None-Match header names this tag (weak comparison, as RFC 9110 asks for GET). */
function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === opaque(tag));
}

/**
 * The answer to a GET of a cacheable representation: 200 with its body, Cache-Control and ETag;
 * or 304 with no body when the client's If-None-Match already names it.
 */
export function cachedResponse(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  representation: CacheableRepresentation,
  tag = entityTag(representation.body),
): APIGatewayProxyResult {
  const caching = { 'cache-control': representation.cacheControl, etag: tag, 'x-content-type-options': 'nosniff' };
  if (matches(headerValue(event.headers, 'if-none-match'), tag)) return { statusCode: 304, headers: caching, body: '' };
  return {
    statusCode: 200,
    headers: { 'content-type': representation.contentType, ...representation.headers, ...caching },
    body: representation.body,
  };
}
