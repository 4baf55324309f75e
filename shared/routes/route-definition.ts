import type * as v from 'valibot';
import type { Role, Scope } from '../core/access';
import type { FunctionPermissions } from '../function-permissions';
import type { ErrorCode } from '../core/error-codes';
import type { FieldProblem } from '../core/errors';

/**
 * What one HTTP route is, as its function runs it: method, path, public alias, handler module,
 * who may call it, what its IAM role may do, and the schemas of what it accepts. Each route
 * declares it in its route module (shared/routes/<area>/<route>.ts) with `defineRoute`; its
 * handler imports that definition alone, never the manifest (shared/routes/manifest.ts), so a
 * function's bundle carries no other route's schemas or text.
 *
 * `publicAlias` adds the same operation on the public API host: it is served by the same
 * function, so its behaviour is identical by construction; on the alias the organization comes
 * from the credential instead of the path.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route. A credential kind that is absent is refused with 403
 * (USER_KEY_NOT_ALLOWED, ORG_KEY_NOT_ALLOWED, API_KEY_NOT_ALLOWED, or API_KEY_REQUIRED for an ID token).
 */
export interface RouteAccess {
  /** ID tokens of active members of the organization with at least this role. */
  idToken?: { minRole: Role };
  /** Organization API keys of the same organization carrying every listed scope. */
  orgKey?: { scopes: readonly Scope[] };
  /** Personal API keys carrying every listed scope, of active members with at least minRole. */
  userKey?: { scopes: readonly Scope[]; minRole: Role };
}

/**
 * What one route accepts besides its path: the query parameters and the JSON body. The
 * handler wrapper (shared/http/api-handler.ts) validates every request with these and the
 * OpenAPI generator documents exactly these; there is no other request schema.
 */
export interface RouteRequest {
  /** A strict object of string parameters; a route without one takes no query parameters. */
  query?: v.GenericSchema;
  /** The JSON body; a route without one ignores any body it is sent. */
  body?: v.GenericSchema;
  /** The 400 code of a body problem, where the spec names one per part of the body. */
  bodyErrorCode?: (problem: FieldProblem) => ErrorCode;
  /** The 400 code of a query problem, where the spec names one (Search: INVALID_QUERY for `q`, `mode` and `in`). */
  queryErrorCode?: (problem: FieldProblem) => ErrorCode;
}

export interface RouteDefinition {
  /** The route's name: its operationId, its key in the manifest, the `route` of its log lines. */
  name: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. /api/v1/organization/{orgId}/users. */
  path: string;
  publicAlias?: string;
  /** Module path from the repo root, without extension; it exports `handler`. */
  handler: string;
  summary: string;
  /** 'public' routes have no authorizer. */
  access: RouteAccess | 'public';
  /** What the function's IAM role may do; the stack grants exactly this. */
  permissions: FunctionPermissions;
  /** The query and body schemas; a route without any takes no query and ignores a body. */
  request?: RouteRequest;
  /** A route that acts on no organization yet (accepting an invitation): only the credential kind is checked. */
  orgless?: boolean;
  /**
   * A route of the API reference (the /docs page, its assets, the OpenAPI document): public, served
   * like any route, but not an operation of the API, so the OpenAPI document does not list it.
   */
  reference?: true;
}

/**
 * One area's routes (shared/routes/<area>/, handlers in functions/<area>/), in manifest order, and the
 * nested stack that deploys them. The stack is declared, never derived from a folder: a path
 * resource cannot move between stacks, so an area whose paths hang below another area's (a
 * recording's summaries) is deployed with it.
 */
export interface RouteAreaDefinition {
  area: string;
  /** The route stack (infra/route-areas.ts) its routes' functions, methods and paths are built in. */
  stack: string;
  routes: readonly { route: RouteDefinition; docs: () => unknown }[];
}

/** An area's routes, their literal types kept (the manifest derives the route names from them). */
export function defineRouteArea<const A extends RouteAreaDefinition>(area: A): A {
  return area;
}

/** A route's definition, its literal types kept (the handler's path, query, body and caller types come from them). */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** Organization routes by role: ID tokens of members with the role, or org keys with the scope. */
export const orgRoute = (minRole: Role, scope: Scope) => ({ idToken: { minRole }, orgKey: { scopes: [scope] } }) satisfies RouteAccess;

/** Member routes: ID tokens of owners and admins, or org keys with the scope. */
export const memberRoute = (scope: Scope) => ({ idToken: { minRole: 'admin' as Role }, orgKey: { scopes: [scope] } }) satisfies RouteAccess;

/** One HTTP method + path that API Gateway serves: a route or its public alias (of a route named N: the manifest's endpoints know their names). */
export interface Endpoint<N extends string = string> {
  routeName: N;
  route: RouteDefinition;
  method: HttpMethod;
  path: string;
  /** Where the organization comes from: the {orgId} path parameter, or the caller's credential. */
  orgSource: 'path' | 'credential' | 'none';
}

/** The endpoints of one route: its path, then its public alias. */
export function endpointsOf(route: RouteDefinition): Endpoint[] {
  const paths = route.publicAlias ? [route.path, route.publicAlias] : [route.path];
  return paths.map((path) => ({
    routeName: route.name,
    route,
    method: route.method,
    path,
    orgSource: path.includes('{orgId}') ? 'path' : route.access === 'public' || route.orgless ? 'none' : 'credential',
  }));
}

/** The endpoint of a route that API Gateway matched, from the event's `resource` template. */
export function endpointOf(route: RouteDefinition, resource: string): Endpoint {
  const endpoint = endpointsOf(route).find((e) => e.path === resource);
  if (!endpoint) throw new Error(`Route ${route.name} has no path ${resource}`);
  return endpoint;
}

/** Whether a route accepts an Idempotency-Key (docs/idempotency.md): every authenticated POST route. */
export function takesIdempotencyKey(route: Pick<RouteDefinition, 'method' | 'access'>): boolean {
  return route.method === 'POST' && route.access !== 'public';
}

/**
 * Whether a route's requests count against the rate limits of an organization (docs/rate-limits.md):
 * every authenticated route that acts in one. Accepting an invitation acts in none yet.
 */
export function countsAgainstRateLimits(route: Pick<RouteDefinition, 'access' | 'orgless'>): boolean {
  return route.access !== 'public' && !route.orgless;
}

/** The parameter names of a path template: `/a/{orgId}/b/{userId}` → 'orgId' | 'userId'. */
export type PathParameterNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterNames<Rest>
  : never;

/** The path parameters of a route, as its handler receives them (orgId is the caller's, never read from the path). */
export type RoutePath<R extends RouteDefinition> = { [K in Exclude<PathParameterNames<R['path']>, 'orgId'>]: string };
export type RouteQuery<R extends RouteDefinition> = R['request'] extends { query: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : Record<string, never>;
export type RouteBody<R extends RouteDefinition> = R['request'] extends { body: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : undefined;
