import { API_KEYS_ROUTES } from './api-keys/api-keys-routes';
import { AUDIT_ROUTES } from './audit/audit-routes';
import { DOCS_ROUTES } from './docs/docs-routes';
import { ERASURES_ROUTES } from './erasures/erasures-routes';
import { EXPORTS_ROUTES } from './exports/exports-routes';
import { GOVERNANCE_ROUTES } from './governance/governance-routes';
import { HEALTH_ROUTES } from './health/health-routes';
import { INVITES_ROUTES } from './invites/invites-routes';
import { MEMBERS_ROUTES } from './members/members-routes';
import { PUBLIC_RECORDINGS_ROUTES } from './public-recordings/public-recordings-routes';
import { RECORDINGS_ROUTES } from './recordings/recordings-routes';
import { SEARCH_ROUTES } from './search/search-routes';
import { SUMMARIES_ROUTES } from './summaries/summaries-routes';
import { endpointsOf, type Endpoint, type RouteDefinition } from './route-definition';
import type { OperationDocs, ReferenceRouteDocs } from './route-docs';
import type { SampleRequestOf } from './sample-request';
import { TEMPLATES_ROUTES } from './templates/templates-routes';
import { TRANSLATIONS_ROUTES } from './translations/translations-routes';
import { USAGE_ROUTES } from './usage/usage-routes';
import { USERS_ROUTES } from './users/users-routes';
import { WEBHOOKS_ROUTES } from './webhooks/webhooks-routes';

/**
 * The route manifest: every HTTP route of the API, assembled from the route modules of each
 * area (shared/routes/<area>/<area>-routes.ts lists them, one file per route beside it). The CDK
 * stack, the local API emulator, the OpenAPI document, the sample events, the access matrix and
 * the typed client read it; a handler never does (it imports its own route's module alone).
 *
 * The order is the order of the OpenAPI document, of the stack's methods and of the sample
 * requests, which run in it on one set of data: changes come after reads of the same item.
 */
const AREAS = [
  HEALTH_ROUTES,
  DOCS_ROUTES,
  USERS_ROUTES,
  MEMBERS_ROUTES,
  GOVERNANCE_ROUTES,
  EXPORTS_ROUTES,
  RECORDINGS_ROUTES,
  TRANSLATIONS_ROUTES,
  PUBLIC_RECORDINGS_ROUTES,
  SUMMARIES_ROUTES,
  TEMPLATES_ROUTES,
  INVITES_ROUTES,
  AUDIT_ROUTES,
  USAGE_ROUTES,
  API_KEYS_ROUTES,
  WEBHOOKS_ROUTES,
  SEARCH_ROUTES,
  // Last: erasing the sample's former member removes data no later sample request reads.
  ERASURES_ROUTES,
] as const;

type ManifestEntry = (typeof AREAS)[number]['routes'][number];
/** Each route's definition and its docs (a route module gives them as a function, called here once). */
const ENTRIES: readonly { route: RouteDefinition; area: string; stack: string; docs: OperationDocs | ReferenceRouteDocs }[] = AREAS.flatMap(
  ({ area, stack, routes }) =>
    (routes as readonly { route: RouteDefinition; docs: () => OperationDocs | ReferenceRouteDocs }[]).map(({ route, docs }) => ({
      route,
      area,
      stack,
      docs: docs(),
    })),
);

export type RouteName = ManifestEntry['route']['name'];

/** Every route's definition, by name, in manifest order. */
export const ROUTES = Object.fromEntries(ENTRIES.map(({ route }) => [route.name, route])) as {
  [E in ManifestEntry as E['route']['name']]: E['route'];
};

/** The routes that are operations of the API: all but the API reference's (`reference: true`), which the OpenAPI document leaves out. */
export type OperationRouteName = { [R in RouteName]: (typeof ROUTES)[R] extends { reference: true } ? never : R }[RouteName];

/** What the OpenAPI document says of every operation: description, response schemas, refusals, examples. */
export const ROUTE_DOCS = Object.fromEntries(
  ENTRIES.filter(({ route }) => !route.reference).map(({ route, docs }) => [route.name, docs]),
) as Record<OperationRouteName, OperationDocs>;

/**
 * Every route's sample request (each route module must give one). Requests run in manifest
 * order on one set of data: changes come after reads of the same item.
 */
export const SAMPLE_REQUESTS = Object.fromEntries(ENTRIES.map(({ route, docs }) => [route.name, docs.sample])) as Record<
  RouteName,
  SampleRequestOf
>;

/** An endpoint that is an operation of the API. */
export type OperationEndpoint = Endpoint<OperationRouteName>;

/** Whether an endpoint is an operation of the API (listed in the OpenAPI document), not a route of the API reference. */
export function isOperation(endpoint: Endpoint<RouteName>): endpoint is OperationEndpoint {
  return !endpoint.route.reference;
}

/** Every endpoint API Gateway serves, aliases included, in manifest order. */
export function listEndpoints(): Endpoint<RouteName>[] {
  return ENTRIES.flatMap(({ route }) => endpointsOf(route) as Endpoint<RouteName>[]);
}

/** The endpoint of a route that API Gateway matched, from the event's `resource` template. */
export function endpointFor(routeName: RouteName, resource: string): Endpoint<RouteName> {
  const endpoint = listEndpoints().find((e) => e.routeName === routeName && e.path === resource);
  if (!endpoint) throw new Error(`Route ${routeName} has no path ${resource}`);
  return endpoint;
}

/** Where each route lives: its area (shared/routes/<area>/, functions/<area>/) and the route stack that deploys it. */
export const ROUTE_PLACES = Object.fromEntries(ENTRIES.map(({ route, area, stack }) => [route.name, { area, stack }])) as Record<
  RouteName,
  { area: string; stack: string }
>;
