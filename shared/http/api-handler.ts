import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { authorizeCaller, requireCredentialKind, type Caller } from '../auth/policy';
import { principalFromContext, type Principal } from '../auth/principal';
import { endpointFor, listEndpoints, ROUTES, type RouteName } from '../routes';
import { Id } from '../schemas/common';
import { pathSchema, querySchema, ROUTE_REQUESTS, type RouteBody, type RoutePath, type RouteQuery, type RouteRequest } from '../schemas/route-requests';
import { table } from '../storage/dynamo';
import { UnauthorizedError, ValidationError, type FieldProblem } from './errors';
import { httpHandler } from './http-handler';
import { jsonBodyParser } from './json-body';
import { unstorableText } from './request-text';
import { parseBody, parseInput } from './validation';

/** What an authorized route's handler receives: the request validated by its route's schemas, and who sent it. */
export interface ApiRequest<R extends RouteName> {
  event: APIGatewayProxyEvent;
  /** Who the credential belongs to, as the authorizer resolved it. */
  principal: Principal;
  path: RoutePath<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  correlationId: string;
}

/** The authorized caller in the organization; orgless routes (accepting an invitation) act in none yet, so they get none. */
type Authorized<R extends RouteName> = ApiRequest<R> & ((typeof ROUTES)[R] extends { orgless: true } ? { caller?: undefined } : { caller: Caller });

/**
 * An authenticated route: the shared HTTP stack, the route's request schemas
 * (shared/schemas/route-requests.ts: path ids, query, JSON body; every problem a 400 before
 * anything is read or written), then the route policy of the manifest (who may call, in
 * which organization). A handler module is then just: call the domain, shape the response.
 */
export function apiHandler<R extends RouteName>(routeName: R, handle: (request: Authorized<R>) => Promise<APIGatewayProxyResult>) {
  const request: RouteRequest = ROUTE_REQUESTS[routeName];
  const query = querySchema(routeName);
  // One schema per path the function serves (the route and its public alias), built at cold start.
  const pathSchemas = new Map(listEndpoints().filter((e) => e.routeName === routeName).map((e) => [e.path, pathSchema(e.path)]));
  const middlewares = request.body ? [jsonBodyParser()] : [];
  return httpHandler(
    routeName,
    async (event, context) => {
      const endpoint = endpointFor(routeName, event.resource);
      const principal = principalFromContext(event.requestContext.authorizer);
      if (!principal) throw new UnauthorizedError();
      const input = requestInput(event, context.jsonBody, request.bodyErrorCode);
      const path = parseInput(pathSchemas.get(endpoint.path)!, input.path);
      const requestedOrgId = endpoint.orgSource === 'path' ? path.orgId : orgIdParameter(input.query);
      const validated = {
        path,
        query: parseInput(query, input.query),
        body: request.body ? parseBody(request.body, input.body, request.bodyErrorCode) : undefined,
      };
      const caller = endpoint.orgSource === 'none' ? (requireCredentialKind(endpoint, principal), undefined) : await authorizeCaller(endpoint, principal, requestedOrgId, table());
      return handle({ event, principal, caller, correlationId: context.correlationId, ...validated } as unknown as Authorized<R>);
    },
    middlewares,
  );
}

/**
 * The raw path, query and body, refused whole when any of them holds text that cannot be
 * stored as sent, or when a query parameter is given twice (API Gateway would keep only the last).
 */
function requestInput(event: APIGatewayProxyEvent, body: unknown, bodyErrorCode: RouteRequest['bodyErrorCode']) {
  const repeated = Object.entries(event.multiValueQueryStringParameters ?? {})
    .filter(([, values]) => (values?.length ?? 0) > 1)
    .map(([name]): FieldProblem => ({ field: name, issue: 'repeated', message: 'is given more than once; give it once' }));
  const input = { path: { ...event.pathParameters }, query: { ...event.queryStringParameters }, body };
  const problems = [...repeated, ...unstorableText(input.path), ...unstorableText(input.query)];
  if (problems.length) throw ValidationError.of(problems);
  const bodyProblems = unstorableText(body);
  if (bodyProblems.length) throw ValidationError.of(bodyProblems, bodyErrorCode?.(bodyProblems[0]));
  return input;
}

/** The public aliases' org_id parameter, taken out of the query the route's schema sees. */
function orgIdParameter(query: Record<string, string | undefined>): string | undefined {
  const orgId = query.org_id;
  delete query.org_id;
  return orgId === undefined ? undefined : parseInput(Id, orgId, { at: 'org_id' });
}
