import { logger } from '../../observability/logger';
import { annotateInvocation } from '../../observability/invocation-trace';
import { correlationIdFrom, GATEWAY, headerValue } from '../gateway';
import type { HttpMiddleware } from '../http-context';

/**
 * Gives every request a correlation id: the client's `x-correlation-id` when it is a sane
 * token, else a new one. Powertools Logger puts it (and the route, and the API's request
 * id of the access log line) on every log line of the request, and the invocation's X-Ray
 * subsegment, named after the route, is annotated with it (searchable:
 * `annotation.correlation_id = "…"`); the response, error or not,
 * carries it back in `x-correlation-id`.
 */
export function correlationId(routeName: string): HttpMiddleware {
  return {
    before: ({ event, context }) => {
      context.correlationId = correlationIdFrom(headerValue(event.headers, GATEWAY.correlationHeader));
      logger.setCorrelationId(context.correlationId);
      logger.appendKeys({ route: routeName, api_request_id: event.requestContext?.requestId });
      annotateInvocation('correlation_id', context.correlationId);
    },
    after: (request) => {
      if (request.response)
        request.response.headers = { ...request.response.headers, [GATEWAY.correlationHeader]: request.context.correlationId };
    },
    onError: (request) => {
      // A failure before `before` ran (none today) still answers with an id to quote.
      request.context.correlationId ??= correlationIdFrom(undefined);
      if (request.response)
        request.response.headers = { ...request.response.headers, [GATEWAY.correlationHeader]: request.context.correlationId };
    },
  };
}
