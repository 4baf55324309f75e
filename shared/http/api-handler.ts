import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { authorizeCaller, requireCredentialKind, type Caller } from '../auth/policy';
import { principalFromContext, type Principal } from '../auth/principal';
import { endpointFor, type RouteName } from '../routes';
import { table } from '../storage/dynamo';
import { InvalidJsonError, UnauthorizedError } from './errors';
import { httpHandler } from './http-handler';

/** What an organization route's handler receives: the parsed, authorized request. */
export interface ApiRequest {
  event: APIGatewayProxyEvent;
  /** Who the credential belongs to, as the authorizer resolved it. */
  principal: Principal;
  /** The authorized caller in the organization; orgless routes (invite acceptance) have none. */
  caller: Caller;
  /** Query parameters, minus the alias-only org_id. */
  query: Record<string, string | undefined>;
  path: Record<string, string | undefined>;
  /** Parsed JSON body, or undefined when there is none. */
  body: unknown;
  correlationId: string;
}

/**
 * An authenticated route: the shared HTTP stack, then the route policy of the manifest
 * (who may call, in which organization), then JSON body parsing. A handler module is
 * then just: parse, call the domain, shape the response.
 */
export function apiHandler(routeName: RouteName, handle: (request: ApiRequest) => Promise<APIGatewayProxyResult>) {
  return httpHandler(routeName, async (event, correlationId) => {
    const endpoint = endpointFor(routeName, event.resource);
    const principal = principalFromContext(event.requestContext.authorizer);
    if (!principal) throw new UnauthorizedError();
    const query = { ...(event.queryStringParameters ?? {}) };
    const requestedOrgId = endpoint.orgSource === 'path' ? event.pathParameters?.orgId : query.org_id;
    if (endpoint.orgSource === 'credential') delete query.org_id;
    const caller = endpoint.orgSource === 'none' ? (requireCredentialKind(endpoint, principal), undefined) : await authorizeCaller(endpoint, principal, requestedOrgId, table());
    return handle({ event, principal, caller: caller!, query, path: event.pathParameters ?? {}, body: parseBody(event.body), correlationId });
  });
}

function parseBody(body: string | null): unknown {
  if (body === null || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new InvalidJsonError();
  }
}
