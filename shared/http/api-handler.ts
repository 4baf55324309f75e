import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { admitsKind, type Caller, type CallerFor, type KindsOf, type PrincipalFor } from '../auth/policy';
import type { Principal } from '../auth/principal';
import {
  countsAgainstRateLimits,
  takesIdempotencyKey,
  type RouteAccess,
  type RouteBody,
  type RouteDefinition,
  type RoutePath,
  type RouteQuery,
} from '../routes/route-definition';
import { config } from '../config';
import { createTenantLimiter, type TenantLimiter } from '../domain/rate-limits/tenant-limiter';
import { actorOf } from '../events/actor';
import type { Actor } from '../schemas/event-catalog';
import { withChangeContext } from '../storage/change-stamp';
import { table } from '../storage/dynamo';
import { getOrganizationLimits } from '../storage/organizations';
import { rateLimitCounters } from '../storage/rate-limit-counters';
import type { HttpContext, HttpMiddleware } from './http-context';
import { httpHandler } from './http-handler';
import { authorizationContext } from './middlewares/authorization-context';
import { jsonBodyParser } from './middlewares/json-body';
import { routePolicy } from './middlewares/route-policy';
import { routeRequest } from './middlewares/route-request';
import { tenantRateLimit } from './middlewares/tenant-rate-limit';

/** A route behind the authorizer. */
type AuthenticatedRoute = RouteDefinition & { access: RouteAccess };
/** An authenticated route that acts in an organization (all but accepting an invitation). */
export type OrganizationRoute = AuthenticatedRoute & { orgless?: false };
/** An authenticated route that acts in no organization yet. */
export type OrglessRoute = AuthenticatedRoute & { orgless: true };

type AccessOf<R extends AuthenticatedRoute> = R['access'];

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
 * Idempotency-Key for a keyed route (a POST behind the authorizer, docs/idempotency.md): the
 * middleware of one route, given its name. Only the handlers of keyed routes pass it (through
 * idempotentApiHandler or idempotentOrglessHandler, shared/http/idempotent-handlers.ts), so that no other
 * route's bundle carries the middleware and Powertools' idempotency utility.
 */
export type KeyedRequests = (routeName: string) => HttpMiddleware;

export interface HandlerOptions {
  /** Required by, and only accepted from, a route that takes Idempotency-Key. */
  idempotency?: KeyedRequests;
}

/**
 * An authenticated organization route, from its definition (its route module's, the one the
 * handler imports): the shared HTTP stack, then the middlewares of an authenticated route (JSON
 * body when the route takes one, the authorizer's principal, the route's request schemas, the
 * route's access policy). A handler module is then just: call the domain, shape the response.
 */
export function apiHandler<const R extends OrganizationRoute>(
  route: R,
  handle: Handle<OrganizationRequest<R>>,
  options: HandlerOptions = {},
) {
  return authenticatedHandler(route, options, (context, request) => {
    const { caller } = context;
    if (!caller || !admits(route, caller)) throw new Error(`${route.name}: the route policy left no caller the route admits`);
    // Every write of the request is stamped with who made it and the request's correlation id: its events name them.
    return withChangeContext({ actor: actorOf(caller), correlationId: request.correlationId }, () => handle({ ...request, caller }));
  });
}

/** An authenticated route that acts in no organization yet (accepting an invitation): a principal, no caller. */
export function orglessHandler<const R extends OrglessRoute>(route: R, handle: Handle<ApiRequest<R>>, options: HandlerOptions = {}) {
  return authenticatedHandler(route, options, (_context, request) => {
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
    limiter = createTenantLimiter({
      counters: rateLimitCounters(),
      organizationLimits: (orgId) => getOrganizationLimits(table(), orgId),
      defaults,
      cacheSeconds,
      now: Date.now,
    });
  }
  return limiter;
}

function authenticatedHandler<R extends AuthenticatedRoute>(
  route: R,
  options: HandlerOptions,
  handle: (context: HttpContext, request: ApiRequest<R>) => Promise<APIGatewayProxyResult>,
) {
  const takesBody = Boolean(route.request?.body);
  // Idempotency-Key comes after the policy and the rate limit: only an authorized, admitted caller reserves a key.
  const keyed = keyedMiddlewares(route, options);
  const rateLimit = countsAgainstRateLimits(route) ? tenantRateLimit(tenantLimiter) : undefined;
  return httpHandler(
    route,
    async (event, context) => {
      // A key seen before: its stored response, and nothing runs again.
      if (context.idempotentReplay) return context.idempotentReplay;
      const { principal, input } = context;
      if (!principal || !input || !admits(route, principal))
        throw new Error(`${route.name}: the authenticated route middlewares did not run`);
      // The input was parsed by exactly this route's schemas (routeRequest), which these types are inferred from.
      const validated = input as { path: RoutePath<R>; query: RouteQuery<R>; body: RouteBody<R> };
      return handle(context, {
        event,
        principal,
        path: validated.path,
        query: validated.query,
        body: validated.body,
        correlationId: context.correlationId,
      });
    },
    [
      ...(takesBody ? [jsonBodyParser()] : []),
      authorizationContext(),
      ...(rateLimit ? [rateLimit.forKey] : []),
      routeRequest(route),
      routePolicy(table),
      ...(rateLimit ? [rateLimit.forMember] : []),
      ...keyed,
    ],
  );
}

/**
 * The Idempotency-Key middleware of a keyed route. A keyed route whose handler did not pass it
 * fails its cold start, loudly (every test that loads the handler fails): its keyed requests
 * must never run unprotected. A route that takes no key refuses it: its bundle would carry the
 * utility for nothing.
 */
function keyedMiddlewares(route: AuthenticatedRoute, { idempotency }: HandlerOptions): HttpMiddleware[] {
  if (takesIdempotencyKey(route)) {
    if (!idempotency)
      throw new Error(
        `${route.name} takes Idempotency-Key: its handler must be idempotentApiHandler or idempotentOrglessHandler (shared/http/idempotent-handlers.ts)`,
      );
    return [idempotency(route.name)];
  }
  if (idempotency)
    throw new Error(`${route.name} takes no Idempotency-Key (only POST routes behind the authorizer do): use apiHandler or orglessHandler`);
  return [];
}

/** Whether the route's access rule admits this credential kind (the policy already refused any other with 403). */
function admits<R extends AuthenticatedRoute, T extends Principal | Caller>(
  route: R,
  who: T,
): who is Extract<T, { kind: KindsOf<AccessOf<R>> }> {
  const access: RouteAccess = route.access;
  return admitsKind(access, who.kind);
}
