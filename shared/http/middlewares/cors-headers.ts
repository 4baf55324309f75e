import { CORS_RESPONSE_HEADERS } from '../gateway';
import type { HttpMiddleware } from '../http-context';

/** The CORS headers of the API (shared/http/gateway.ts) on every response, errors included. */
export function corsHeaders(): HttpMiddleware {
  const addHeaders: NonNullable<HttpMiddleware['after']> = (request) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...CORS_RESPONSE_HEADERS };
  };
  return { after: addHeaders, onError: addHeaders };
}
