import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { logger } from '../observability/logger';
import type { RouteName } from '../routes';
import { ApiError, ValidationError } from './errors';
import { correlationIdFrom, CORS_RESPONSE_HEADERS, GATEWAY, headerValue } from './gateway';
import { errorBody, json } from './responses';

/** The Lambda context as the middlewares leave it for the handler (middy's request.context). */
export interface HttpContext extends Context {
  correlationId: string;
  /** The parsed JSON body (undefined when none), set by the JSON body middleware of routes that take one. */
  jsonBody?: unknown;
}

export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;
type Handle = (event: APIGatewayProxyEvent, context: HttpContext) => Promise<APIGatewayProxyResult>;

/**
 * The middy stack every HTTP function shares: Lambda context and the request's
 * correlation id in every log line, `x-correlation-id` and the CORS headers on every response, and the one
 * mapping of errors to the envelope (ApiError -> its status and code; anything else ->
 * 500 INTERNAL_ERROR with no internal detail). It touches no storage, so a function that
 * needs none (health) bundles none. `middlewares` run after the correlation id is known.
 */
export function httpHandler(routeName: RouteName, handle: Handle, middlewares: HttpMiddleware[] = []) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({
      before: (request) => {
        request.context.correlationId = correlationIdFrom(headerValue(request.event.headers, GATEWAY.correlationHeader));
        // api_request_id is the requestId of the API's access log line for this request.
        logger.appendKeys({ correlation_id: request.context.correlationId, route: routeName, api_request_id: request.event.requestContext?.requestId });
      },
      after: (request) => withCorrelationId(request.response!, request.context.correlationId),
      onError: (request) => {
        const correlationId = request.context.correlationId ?? correlationIdFrom(undefined);
        request.response = withCorrelationId(errorResponse(request.error), correlationId);
      },
    })
    .use(middlewares)
    .handler((event, context) => handle(event, context));
}

function errorResponse(error: unknown): APIGatewayProxyResult {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) logger.error('request failed', { error });
    else logger.info('request refused', { status: error.statusCode, error_code: error.code });
    const details = error instanceof ValidationError ? error.details : undefined;
    return json(error.statusCode, errorBody(error.code, error.message, details));
  }
  logger.error('unexpected failure', { error: error as Error });
  return json(500, errorBody('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged.'));
}

function withCorrelationId(response: APIGatewayProxyResult, correlationId: string): APIGatewayProxyResult {
  response.headers = { ...response.headers, ...CORS_RESPONSE_HEADERS, [GATEWAY.correlationHeader]: correlationId };
  return response;
}
