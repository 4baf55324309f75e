import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Caller } from '../auth/policy';
import type { Principal } from '../auth/principal';
import type { Endpoint } from '../routes/route-definition';

/** A request's path, query and body after its route's schemas validated them. */
export interface ValidatedInput {
  /** The endpoint API Gateway matched (the route, or its public alias). */
  endpoint: Endpoint;
  /** Typed by the route's schemas where the handler receives them (shared/http/api-handler.ts). */
  path: unknown;
  query: unknown;
  body: unknown;
  /** The organization the request names: the {orgId} path parameter, or `org_id` on public aliases. */
  requestedOrgId?: string;
}

/**
 * The Lambda context as the middlewares leave it for the handler (middy's request.context).
 * Each optional field is set by one middleware; a handler reads only those its stack runs.
 */
export interface HttpContext extends Context {
  /** Set by correlationId(): the request's correlation id (the client's, or a new one). */
  correlationId: string;
  /** Set by jsonBody(): the parsed JSON body (undefined when none). */
  jsonBody?: unknown;
  /** Set by authorizationContext(): who the authorizer said the caller is. */
  principal?: Principal;
  /** Set by routeRequest(): the validated input. */
  input?: ValidatedInput;
  /** Set by routePolicy(): the authorized caller in the organization (orgless routes have none). */
  caller?: Caller;
  /** Set by tenantRateLimit() once the request is counted: the RateLimit-* headers of the response. */
  rateLimit?: { limit: number; remaining: number; resetSeconds: number };
  /** Set by idempotency(): the stored response of an Idempotency-Key seen before; the handler answers it instead of running. */
  idempotentReplay?: APIGatewayProxyResult;
}

export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, HttpContext>;
