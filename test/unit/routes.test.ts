import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AUTHORIZER } from '../../shared/auth/authorizer-function';
import { ORG_KEY_SCOPE_ROLES, PERSONAL_KEY_SCOPE_ROLES, scopeCeilingsOf } from '../../shared/auth/scope-ceilings';
import { EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR, type EventConsumerDefinition } from '../../shared/events/event-functions';
import { TRANSCRIPTION_SWEEPER, RETENTION_SWEEPER } from '../../shared/events/scheduled-functions';
import { listEndpoints, ROUTE_PLACES, ROUTES, type RouteName } from '../../shared/routes/manifest';
import { listFunctions, listHandlers } from '../../infra/function-list';
import type { RouteDefinition } from '../../shared/routes/route-definition';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES } from '../../shared/schemas/event-catalog';

const repoRoot = path.resolve(__dirname, '../..');

describe('route manifest', () => {
  it('names a handler module that exists for every route', () => {
    for (const route of Object.values(ROUTES) as RouteDefinition[]) {
      expect(existsSync(path.join(repoRoot, `${route.handler}.ts`))).toBe(true);
    }
  });

  it('has one endpoint per method and path', () => {
    const keys = listEndpoints().map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves a public alias from the same handler, with the org taken from the credential', () => {
    const aliases = listEndpoints().filter((e) => e.path.startsWith('/api/v1/public/') && e.route.publicAlias === e.path);
    expect(aliases.length).toBeGreaterThan(0);
    for (const endpoint of aliases) {
      const orgRoute = listEndpoints().find((e) => e.routeName === endpoint.routeName && e.orgSource === 'path');
      expect(orgRoute?.route.handler).toBe(endpoint.route.handler);
      expect(endpoint.orgSource).toBe('credential');
    }
  });

  it('gives every organization route an access rule, and organization paths an {orgId}', () => {
    for (const endpoint of listEndpoints()) {
      if (endpoint.path.startsWith('/api/v1/organization/') && endpoint.path !== '/api/v1/organization/invites/accept') {
        expect(endpoint.orgSource).toBe('path');
        expect(endpoint.route.access).not.toBe('public');
      }
    }
  });

  it('builds one function per handler module', () => {
    const handlers = listHandlers().map((h) => h.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
    expect(handlers).toEqual(expect.arrayContaining(['functions/users/list-users', 'functions/health/health']));
  });

  it('gives new keys the scope ceilings its access rules give (shared/auth/scope-ceilings.ts writes them out for the key functions)', () => {
    const derived = scopeCeilingsOf(Object.values(ROUTES).map((route: RouteDefinition) => route.access));
    expect({ org: ORG_KEY_SCOPE_ROLES, personal: PERSONAL_KEY_SCOPE_ROLES }).toEqual(derived);
  });

  it('lists every function of the stack once: the authorizer, the handler modules, the event handlers, the event processor and consumers, the transcription and retention sweepers', () => {
    const functions = listFunctions();
    expect(functions.map((fn) => fn.handler)).toEqual([
      AUTHORIZER.handler,
      ...listHandlers().map((h) => h.handler),
      ...Object.values(EVENT_HANDLERS).map((h) => h.handler),
      EVENT_PROCESSOR.handler,
      ...Object.values(EVENT_CONSUMERS).map((c) => c.handler),
      TRANSCRIPTION_SWEEPER.handler,
      RETENTION_SWEEPER.handler,
    ]);
    expect(new Set(functions.map((fn) => fn.handler)).size).toBe(functions.length);
    expect(functions.filter((fn) => fn.kind === 'authorizer')).toEqual([
      { handler: AUTHORIZER.handler, name: 'authorizer', kind: 'authorizer', permissions: AUTHORIZER.permissions },
    ]);
    for (const { handler } of functions)
      expect({ handler, exists: existsSync(path.join(repoRoot, `${handler}.ts`)) }).toEqual({ handler, exists: true });
  });
});

describe('route modules', () => {
  const routesDir = path.join(repoRoot, 'shared/routes');
  const areas = readdirSync(routesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  /** Where a route's module is: shared/routes/<area>/<its handler's file name>. */
  const moduleOf = (route: RouteDefinition) => {
    const found = areas
      .map((area) => `shared/routes/${area}/${path.basename(route.handler)}.ts`)
      .filter((file) => existsSync(path.join(repoRoot, file)));
    return found.length === 1 ? found[0] : `${found.length} modules for ${route.name}`;
  };

  it("puts each route's module and handler in its area's folders, both named after the route: shared/routes/<area>/, functions/<area>/", () => {
    const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteDefinition][]) {
      const { area } = ROUTE_PLACES[name];
      expect({
        route: name,
        handler: route.handler,
        module: existsSync(path.join(repoRoot, `shared/routes/${area}/${kebab(name)}.ts`)),
      }).toEqual({
        route: name,
        handler: `functions/${area}/${kebab(name)}`,
        module: true,
      });
    }
  });

  it('gives each route one module in its area folder, named after its handler, that defines it', () => {
    for (const route of Object.values(ROUTES) as RouteDefinition[]) {
      const file = moduleOf(route);
      expect({
        route: route.name,
        defines:
          existsSync(path.join(repoRoot, file)) &&
          readFileSync(path.join(repoRoot, file), 'utf8').includes(`export const ${route.name}Route = defineRoute({`),
      }).toEqual({ route: route.name, defines: true });
    }
  });

  /** A module of shared/routes that is not a route module, a list of routes nor the manifest's machinery: plain data a handler may read (the docs' paths). */
  const isRouteData = (file: string) =>
    !/\/(manifest|route-definition|route-docs|sample-request|demo-examples|[\w-]+-routes)$/.test(file) &&
    !readFileSync(path.join(repoRoot, `${file}.ts`), 'utf8').includes('defineRoute(');

  it("has each handler import its own route's module, and no other route module nor the manifest", () => {
    for (const route of Object.values(ROUTES) as RouteDefinition[]) {
      const source = readFileSync(path.join(repoRoot, `${route.handler}.ts`), 'utf8');
      const imported = [...source.matchAll(/from '([^']+)'/g)]
        .map(([, specifier]) => path.relative(repoRoot, path.resolve(path.dirname(path.join(repoRoot, route.handler)), specifier)))
        .filter((file) => file.startsWith('shared/routes/') && !isRouteData(file));
      expect({ route: route.name, imported }).toEqual({ route: route.name, imported: [moduleOf(route).replace(/\.ts$/, '')] });
    }
  });
});

describe('event consumers in the manifest', () => {
  it('each names event types of the catalog (or AWS service events), retries a few times, and a consumer of every public type stores the audit log', () => {
    for (const consumer of Object.values(EVENT_CONSUMERS) as EventConsumerDefinition[]) {
      expect(consumer.eventTypes.length + (consumer.serviceEvents?.length ?? 0)).toBeGreaterThan(0);
      for (const type of consumer.eventTypes) expect([...EVENT_TYPES, ...INTERNAL_EVENT_TYPES]).toContain(type);
      expect(consumer.maxAttempts).toBeGreaterThanOrEqual(3);
    }
    expect([...EVENT_CONSUMERS.recordAuditEntry.eventTypes].sort()).toEqual([...EVENT_TYPES].sort());
    // Internal events never reach an organization's audit log.
    for (const type of INTERNAL_EVENT_TYPES) expect(EVENT_CONSUMERS.recordAuditEntry.eventTypes).not.toContain(type);
  });
});
