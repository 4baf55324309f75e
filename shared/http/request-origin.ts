import type { APIGatewayProxyEvent } from 'aws-lambda';
import { headerValue } from './gateway';

/**
 * What comes before the route's own path in the URL the client called: the stage on API
 * Gateway's default endpoint (`/prod` of `https://{api}.execute-api.{region}.amazonaws.com/prod/docs`),
 * a custom domain's base path (`/v1`), or nothing (a custom domain at its root, the local
 * API). API Gateway's `requestContext.path` is the path as called; the route's own path is
 * its resource template with the path parameters filled in.
 */
export function basePathOf(event: Pick<APIGatewayProxyEvent, 'resource' | 'path' | 'pathParameters' | 'requestContext'>): string {
  const own = event.resource.replace(/\{(\w+)\+?\}/g, (_, name: string) => event.pathParameters?.[name] ?? '');
  const called = event.requestContext?.path ?? event.path;
  return called.endsWith(own) ? called.slice(0, called.length - own.length).replace(/\/+$/, '') : '';
}

/**
 * The URL of the API as the client called it, without the route's own path:
 * `https://{api}.execute-api.{region}.amazonaws.com/prod`, `https://api.example.com/v1`,
 * `http://127.0.0.1:3000`. API Gateway sets X-Forwarded-Proto (https) and Host.
 */
export function publicBaseUrl(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'resource' | 'path' | 'pathParameters' | 'requestContext'>,
): string {
  const protocol = headerValue(event.headers, 'x-forwarded-proto') === 'https' ? 'https' : 'http';
  const host = headerValue(event.headers, 'host') ?? event.requestContext?.domainName ?? 'localhost';
  return `${protocol}://${host}${basePathOf(event)}`;
}
