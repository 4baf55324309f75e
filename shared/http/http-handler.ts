import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { instrumentation } from '../observability/instrumentation';
import { logger } from '../observability/logger';
import type { RouteDefinition } from '../routes/route-definition';
import type { HttpContext, HttpMiddleware } from './http-context';
import { correlationId } from './middlewares/correlation-id';
import { corsHeaders } from './middlewares/cors-headers';
import { errorResponse } from './middlewares/error-response';

type Handle = (event: APIGatewayProxyEvent, context: HttpContext) => APIGatewayProxyResult | Promise<APIGatewayProxyResult>;

/**
 * The middy stack every HTTP function shares, in order: the X-Ray subsegment (named after the
 * route) and the flush
 * of the business metrics (shared/observability/instrumentation.ts), the Lambda context and the
 * request's correlation id in every log line, the CORS headers, the route's own
 * `middlewares` (body parsing, authorization context, validation, policy), and last the one
 * mapping of errors to the envelope. It touches no storage, so a function that needs none
 * (health) bundles none.
 */
export function httpHandler(route: Pick<RouteDefinition, 'name'>, handle: Handle, middlewares: HttpMiddleware[] = []) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>()
    .use(instrumentation({ route: route.name }))
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(correlationId(route.name))
    .use(corsHeaders())
    .use(middlewares)
    .use(errorResponse())
    .handler(async (event, context) => handle(event, context));
}
