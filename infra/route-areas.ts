import { listEndpoints, ROUTE_PLACES, type RouteName } from '../shared/routes/manifest';
import { areaOfName } from './deployed-names';
import type { Endpoint } from '../shared/routes/route-definition';
import { listFunctions, type FunctionDefinition } from './function-list';

/**
 * The route areas of the stack, from the route manifest (shared/routes/manifest.ts): where each
 * route's function, method and path resources are built (docs/architecture.md, "Route stacks").
 *
 * A route's area here is the stack its area's route list declares (`defineRouteArea`'s `stack`):
 * users, recordings, templates, invites, audit, api-keys, webhooks, docs (the grouping the alarms
 * use too). Each but the root's gets a nested stack of its own (infra/constructs/route-stack.ts);
 * a new stack name makes a new nested stack, without a change here. The path resources two areas
 * share (/api, /api/v1/organization/{orgId}, …) stay in the root stack, where each area's stack
 * attaches its own subtree.
 */

/**
 * Areas whose routes stay in the root stack: /health, which load balancers and deploy checks
 * call, answers from the root stack whatever happens to a route stack.
 */
export const ROOT_ROUTE_AREAS: ReadonlySet<string> = new Set(['health']);

/** One area's routes: the functions serving them and their endpoints (aliases included), in manifest order. */
export interface RouteArea {
  area: string;
  /** Whether its routes stay in the root stack (ROOT_ROUTE_AREAS) rather than in a nested stack of their own. */
  inRoot: boolean;
  functions: FunctionDefinition[];
  endpoints: Endpoint<RouteName>[];
}

/** Every route area, in manifest order of its first route (of the manifest's endpoints and functions, or of those given). */
export function listRouteAreas(
  endpoints: readonly Endpoint<RouteName>[] = listEndpoints(),
  functions: readonly FunctionDefinition[] = listFunctions(),
  stackOf: (endpoint: Endpoint<RouteName>) => string = (endpoint) => ROUTE_PLACES[endpoint.routeName].stack,
): RouteArea[] {
  const areas = new Map<string, RouteArea>();
  const areaFor = (name: string): RouteArea => {
    let area = areas.get(name);
    if (!area) {
      area = { area: name, inRoot: ROOT_ROUTE_AREAS.has(name), functions: [], endpoints: [] };
      areas.set(name, area);
    }
    return area;
  };
  for (const endpoint of endpoints) areaFor(stackOf(endpoint)).endpoints.push(endpoint);
  // A route's function is named <stack>/<file> (infra/deployed-names.ts).
  for (const definition of functions.filter((f) => f.kind === 'http')) areaFor(areaOfName(definition.name)).functions.push(definition);
  return [...areas.values()];
}

/** The path resources of a path, from the root's child down: /api/v1/openapi.json → /api, /api/v1, /api/v1/openapi.json. */
export function pathsAlong(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
}

/**
 * Where the path resources live: a path whose routes (its own and those below it) all belong to
 * one nested area is that area's; any other path (shared by two areas, or leading to a root
 * area's route) is the root stack's.
 */
export interface PathPlacement {
  /** The root stack's path resources, in manifest order. */
  rootPaths: string[];
  /** The area whose stack builds a path's resource; undefined for a root path. */
  areaOfPath(path: string): string | undefined;
  /**
   * The root path a route stack's path hangs from: the longest root path above it, or '/'
   * (the RestApi's root resource) when there is none.
   */
  attachPointOf(path: string): string;
}

export function placePaths(areas: readonly RouteArea[] = listRouteAreas()): PathPlacement {
  const areasBelow = new Map<string, Set<string>>();
  for (const { area, inRoot, endpoints } of areas) {
    for (const endpoint of endpoints) {
      for (const path of pathsAlong(endpoint.path)) {
        const below = areasBelow.get(path) ?? new Set<string>();
        below.add(inRoot ? '' : area);
        areasBelow.set(path, below);
      }
    }
  }
  const areaOfPath = (path: string): string | undefined => {
    const below = areasBelow.get(path);
    if (!below) throw new Error(`No route is served at or below ${path}`);
    const [only] = below;
    return below.size === 1 && only !== '' ? only : undefined;
  };
  const rootPaths = [...areasBelow.keys()].filter((path) => areaOfPath(path) === undefined);
  const attachPointOf = (path: string): string =>
    pathsAlong(path)
      .filter((p) => areaOfPath(p) === undefined)
      .at(-1) ?? '/';
  return { rootPaths, areaOfPath, attachPointOf };
}
