import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { admitsKind, type Caller, type CallerFor, type KindsOf, type PrincipalFor } from '../auth/policy';
import type { Principal } from '../auth/principal';
import { countsAgainstRateLimits, ROUTES, takesIdempotencyKey, type RouteAccess, type RouteName } from '../routes';
import type { RouteBody, RoutePath, RouteQuery } from '../schemas/route-requests';
import { ROUTE_REQUESTS } from '../schemas/route-requests';
import { config } from '../config';
import { createTenantLimiter, type TenantLimiter } from '../domain/rate-limits/tenant-limiter';
import { actorOf } from '../events/actor';
import type { Actor } from '../events/event-catalog';
import { withChangeContext } from '../storage/change-stamp';
import { table } from '../storage/dynamo';
import { idempotencyStore } from '../storage/idempotency-records';
import { getOrganizationLimits } from '../storage/organizations';
import { rateLimitCounters } from '../storage/rate-limit-counters';
import type { HttpContext } from './http-context';
import { httpHandler } from './http-handler';
import { authorizationContext } from './middlewares/authorization-context';
import { idempotency } from './middlewares/idempotency';
import { jsonBodyParser } from './middlewares/json-body';
import { routePolicy } from './middlewares/route-policy';
import { routeRequest } from './middlewares/route-request';
import { tenantRateLimit } from './middlewares/tenant-rate-limit';

/** Routes behind the authorizer. */
type AuthenticatedRoute = { [R in RouteName]: (typeof ROUTES)[R]['access'] extends 'public' ? never : R }[RouteName];
/** Authenticated routes that act in an organization (all but accepting an invitation). */
export type OrganizationRoute = { [R in AuthenticatedRoute]: (typeof ROUTES)[R] extends { orgless: true } ? never : R }[AuthenticatedRoute];
/** Authenticated routes that act in no organization yet. */
export type OrglessRoute = Exclude<AuthenticatedRoute, OrganizationRoute>;

type AccessOf<R extends AuthenticatedRoute> = (typeof ROUTES)[R]['access'];

/** What an authenticated route's handler receives: the request validated by its route's schemas, and who sent it. */
export interface ApiRequest<R extends AuthenticatedRoute> {
  event: APIGatewayProxyEvent;
  /** Who the credential belongs to, as the authorizer resolved it (of a kind the route admits). */
  principal: PrincipalFor<AccessOf<R>>;
  path: RoutePath<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  correlationId: string;
}

/** An organization route's request: with the authorized caller, of a kind the route admits. */
export interface OrganizationRequest<R extends OrganizationRoute> extends ApiRequest<R> {
  caller: CallerFor<AccessOf<R>>;
}

type Handle<Request> = (request: Request) => Promise<APIGatewayProxyResult>;

/**
 * An authenticated organization route: the shared HTTP stack, then the middlewares of an
 * authenticated route (JSON body when the route takes one, the authorizer's principal, the
 * route's request schemas, the route policy of the manifest). A handler module is then
 * just: call the domain, shape the response.
 */
export function apiHandler<R extends OrganizationRoute>(routeName: R, handle: Handle<OrganizationRequest<R>>) {
  return authenticatedHandler(routeName, (context, request) => {
    const { caller } = context;
    if (!caller || !admits(routeName, caller)) throw new Error(`${routeName}: the route policy left no caller the route admits`);
    // Every write of the request is stamped with who made it and the request's correlation id: its events name them.
    return withChangeContext({ actor: actorOf(caller), correlationId: request.correlationId }, () => handle({ ...request, caller }));
  });
}

/** An authenticated route that acts in no organization yet (accepting an invitation): a principal, no caller. */
export function orglessHandler<R extends OrglessRoute>(routeName: R, handle: Handle<ApiRequest<R>>) {
  return authenticatedHandler(routeName, (_context, request) => {
    // A user signing in for the first time has no user id yet: the domain names the actor once it has one.
    const principal: Principal = request.principal;
    const actor: Actor | null = principal.kind !== 'org_key' && principal.userId ? { kind: 'user', id: principal.userId } : null;
    return withChangeContext({ actor, correlationId: request.correlationId }, () => handle(request));
  });
}

let limiter: TenantLimiter | undefined;

/** The function's rate limiter, made once per module (cold start): its counters, and its memory of limits, live as long as the instance. */
function tenantLimiter(): TenantLimiter {
  if (!limiter) {
    const { defaults, cacheSeconds } = config().rateLimits;
    limiter = createTenantLimiter({ counters: rateLimitCounters(), organizationLimits: (orgId) => getOrganizationLimits(table(), orgId), defaults, cacheSeconds, now: Date.now });
  }
  return limiter;
}

function authenticatedHandler<R extends AuthenticatedRoute>(routeName: R, handle: (context: HttpContext, request: ApiRequest<R>) => Promise<APIGatewayProxyResult>) {
  const takesBody = 'body' in ROUTE_REQUESTS[routeName];
  // Idempotency-Key comes after the policy and the rate limit: only an authorized, admitted caller reserves a key.
  const keyed = takesIdempotencyKey(ROUTES[routeName]) ? [idempotency(routeName, idempotencyStore)] : [];
  const rateLimit = countsAgainstRateLimits(ROUTES[routeName]) ? tenantRateLimit(tenantLimiter) : undefined;
  return httpHandler(
    routeName,
    async (event, context) => {
      // A key seen before: its stored response, and nothing runs again.
      if (context.idempotentReplay) return context.idempotentReplay;
      const { principal, input } = context;
      if (!principal || !input || !admits(routeName, principal)) throw new Error(`${routeName}: the authenticated route middlewares did not run`);
      // The input was parsed by exactly this route's schemas (routeRequest), which these types are inferred from.
      const validated = input as { path: RoutePath<R>; query: RouteQuery<R>; body: RouteBody<R> };
      return handle(context, { event, principal, path: validated.path, query: validated.query, body: validated.body, correlationId: context.correlationId });
    },
    [
      ...(takesBody ? [jsonBodyParser()] : []),
      authorizationContext(),
      ...(rateLimit ? [rateLimit.forKey] : []),
      routeRequest(routeName),
      routePolicy(table),
      ...(rateLimit ? [rateLimit.forMember] : []),
      ...keyed,
    ],
  );
}

/** Whether the route's access rule admits this credential kind (the policy already refused any other with 403). */
function admits<R extends AuthenticatedRoute, T extends Principal | Caller>(routeName: R, who: T): who is Extract<T, { kind: KindsOf<AccessOf<R>> }> {
  const access: RouteAccess = ROUTES[routeName].access;
  return admitsKind(access, who.kind);
}
