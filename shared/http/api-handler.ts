import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { authorizeCaller, type Caller } from '../auth/policy';
import { principalFromContext } from '../auth/principal';
import { logger } from '../observability/logger';
import { endpointFor, type RouteName } from '../routes';
import { table } from '../storage/dynamo';
import { ApiError, InvalidJsonError, UnauthorizedError } from './errors';
import { correlationIdFrom, GATEWAY } from './gateway';
import { errorBody, json } from './responses';

/** What a handler receives: the parsed, authorized request. */
export interface ApiRequest {
  event: APIGatewayProxyEvent;
  /** The authorized caller; only public routes (no access policy) leave it unset. */
  caller: Caller;
  /** Query parameters, minus the alias-only org_id. */
  query: Record<string, string | undefined>;
  path: Record<string, string | undefined>;
  /** Parsed JSON body, or undefined when there is none. */
  body: unknown;
  correlationId: string;
}

interface Internal extends Record<string, unknown> {
  correlationId: string;
}

/** The correlation id of each event in flight (the handler body cannot see middy's request). */
const correlationIds = new WeakMap<APIGatewayProxyEvent, string>();

/**
 * Wraps an endpoint's logic in the API's middy stack: correlation id and structured
 * logs, the route policy of the manifest, JSON body parsing, and the one mapping of
 * errors to the envelope. A handler module is then just: parse, call the domain, shape.
 */
export function apiHandler(routeName: RouteName, handle: (request: ApiRequest) => Promise<APIGatewayProxyResult>) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, Internal>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({
      before: (request) => {
        const headers: Record<string, string | undefined> = request.event.headers ?? {};
        const header = Object.entries(headers).find(([name]) => name.toLowerCase() === GATEWAY.correlationHeader)?.[1];
        request.internal.correlationId = correlationIdFrom(header);
        correlationIds.set(request.event, request.internal.correlationId);
        logger.appendKeys({ correlation_id: request.internal.correlationId, route: routeName });
      },
      after: (request) => withCorrelationId(request.response!, request.internal.correlationId),
      onError: (request) => {
        request.response = withCorrelationId(errorResponse(request.error), request.internal.correlationId ?? correlationIdFrom(undefined));
      },
    })
    .handler(async (event, _context, _opts) => {
      const endpoint = endpointFor(routeName, event.resource);
      const query = { ...(event.queryStringParameters ?? {}) };
      let caller: Caller | undefined;
      if (endpoint.route.access !== 'public') {
        const principal = principalFromContext(event.requestContext.authorizer);
        if (!principal) throw new UnauthorizedError();
        const requestedOrgId = endpoint.orgSource === 'path' ? event.pathParameters?.orgId : query.org_id;
        if (endpoint.orgSource === 'credential') delete query.org_id;
        caller = await authorizeCaller(endpoint, principal, requestedOrgId, table());
      }
      return handle({
        event,
        caller: caller!,
        query,
        path: event.pathParameters ?? {},
        body: parseBody(event.body),
        correlationId: correlationIds.get(event)!,
      });
    });
}

function parseBody(body: string | null): unknown {
  if (body === null || body === undefined || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new InvalidJsonError();
  }
}

function errorResponse(error: unknown): APIGatewayProxyResult {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) logger.error('request failed', { error });
    else logger.info('request refused', { status: error.statusCode, error_code: error.code });
    return json(error.statusCode, errorBody(error.code, error.message));
  }
  logger.error('unexpected failure', { error: error as Error });
  return json(500, errorBody('INTERNAL_ERROR', 'An unexpected error occurred; it has been logged.'));
}

function withCorrelationId(response: APIGatewayProxyResult, correlationId: string): APIGatewayProxyResult {
  response.headers = { ...response.headers, [GATEWAY.correlationHeader]: correlationId };
  return response;
}
