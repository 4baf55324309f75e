import { existsSync } from 'node:fs';
import path from 'node:path';
import { AUTHORIZER, EVENT_CONSUMERS, EVENT_HANDLERS, EVENT_PROCESSOR, listEndpoints, listFunctions, listHandlers, ROUTES, type RouteDefinition } from '../../shared/routes';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES } from '../../shared/events/event-catalog';

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
    expect(handlers).toEqual(expect.arrayContaining(['functions/users/list-users', 'functions/health']));
  });

  it('lists every function of the stack once: the authorizer, the handler modules, the event handlers, the event processor and consumers', () => {
    const functions = listFunctions();
    expect(functions.map((fn) => fn.handler)).toEqual([
      AUTHORIZER.handler,
      ...listHandlers().map((h) => h.handler),
      ...Object.values(EVENT_HANDLERS).map((h) => h.handler),
      EVENT_PROCESSOR.handler,
      ...Object.values(EVENT_CONSUMERS).map((c) => c.handler),
    ]);
    expect(new Set(functions.map((fn) => fn.handler)).size).toBe(functions.length);
    expect(functions.filter((fn) => fn.kind === 'authorizer')).toEqual([{ handler: AUTHORIZER.handler, kind: 'authorizer', permissions: AUTHORIZER.permissions }]);
    for (const { handler } of functions) expect({ handler, exists: existsSync(path.join(repoRoot, `${handler}.ts`)) }).toEqual({ handler, exists: true });
  });
});

describe('event consumers in the manifest', () => {
  it('each names event types of the catalog, retries a few times, and a consumer of every public type stores the audit log', () => {
    for (const consumer of Object.values(EVENT_CONSUMERS)) {
      expect(consumer.eventTypes.length).toBeGreaterThan(0);
      for (const type of consumer.eventTypes) expect([...EVENT_TYPES, ...INTERNAL_EVENT_TYPES]).toContain(type);
      expect(consumer.maxAttempts).toBeGreaterThanOrEqual(3);
    }
    expect([...EVENT_CONSUMERS.auditLog.eventTypes].sort()).toEqual([...EVENT_TYPES].sort());
    // Internal events never reach an organization's audit log.
    for (const type of INTERNAL_EVENT_TYPES) expect(EVENT_CONSUMERS.auditLog.eventTypes).not.toContain(type);
  });
});
