import type { APIGatewayProxyEvent } from 'aws-lambda';
import { endpointOf, endpointsOf, type RouteDefinition, type RouteRequest } from '../../routes/route-definition';
import { Id } from '../../schemas/common';
import { pathSchema, querySchemaOf } from '../../schemas/request-parameters';
import { ValidationError, type FieldProblem } from '../../core/errors';
import type { HttpMiddleware } from '../http-context';
import { unstorableText } from '../request-text';
import { parseBody, parseInput } from '../../schemas/validation';

/**
 * Validates a request with its route's schemas (path ids, and the query and JSON body of its
 * definition's `request`) onto `context.input`. Every problem is a 400 before anything is read or
 * written: text that cannot be stored as sent, a query parameter given twice, then each
 * schema. The schemas are built once, at cold start.
 */
export function routeRequest(route: RouteDefinition): HttpMiddleware {
  const request: RouteRequest = route.request ?? {};
  const query = querySchemaOf(route);
  // One schema per path the function serves (the route and its public alias).
  const pathSchemas = new Map(endpointsOf(route).map((e) => [e.path, pathSchema(e.path)]));
  return {
    before: ({ event, context }) => {
      const endpoint = endpointOf(route, event.resource);
      const raw = rawInput(event, context.jsonBody, request.bodyErrorCode);
      const path: Record<string, string> = parseInput(pathSchemas.get(endpoint.path) ?? pathSchema(endpoint.path), raw.path);
      const requestedOrgId = endpoint.orgSource === 'path' ? path.orgId : orgIdParameter(raw.query);
      context.input = {
        endpoint,
        path,
        requestedOrgId,
        query: parseQuery(query, raw.query, request.queryErrorCode),
        body: request.body ? parseBody(request.body, raw.body, request.bodyErrorCode) : undefined,
      };
    },
  };
}

/**
 * The raw path, query and body, refused whole when any of them holds text that cannot be
 * stored as sent, or when a query parameter is given twice (API Gateway would keep only the last).
 */
function rawInput(event: APIGatewayProxyEvent, body: unknown, bodyErrorCode: RouteRequest['bodyErrorCode']) {
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

/** The query by its schema; a route that names a code for a query problem answers its first problem's. */
function parseQuery(
  schema: Parameters<typeof parseInput>[0],
  query: Record<string, string | undefined>,
  code: RouteRequest['queryErrorCode'],
) {
  try {
    return parseInput(schema, query);
  } catch (error) {
    if (!code || !(error instanceof ValidationError) || !error.details.length) throw error;
    throw ValidationError.of(error.details, code(error.details[0]));
  }
}

/** The public aliases' org_id parameter, taken out of the query the route's schema sees. */
function orgIdParameter(query: Record<string, string | undefined>): string | undefined {
  const orgId = query.org_id;
  delete query.org_id;
  return orgId === undefined ? undefined : parseInput(Id, orgId, { at: 'org_id' });
}
