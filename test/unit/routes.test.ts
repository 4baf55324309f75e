import { existsSync } from 'node:fs';
import path from 'node:path';
import { AUTHORIZER, EVENT_HANDLERS, listEndpoints, listFunctions, listHandlers, ROUTES, type RouteDefinition } from '../../shared/routes';

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

  it('lists every function of the stack once: the authorizer, the handler modules, the event handlers', () => {
    const functions = listFunctions();
    expect(functions.map((fn) => fn.handler)).toEqual([AUTHORIZER.handler, ...listHandlers().map((h) => h.handler), ...Object.values(EVENT_HANDLERS).map((h) => h.handler)]);
    expect(new Set(functions.map((fn) => fn.handler)).size).toBe(functions.length);
    expect(functions.filter((fn) => fn.kind === 'authorizer')).toEqual([{ handler: AUTHORIZER.handler, kind: 'authorizer', permissions: AUTHORIZER.permissions }]);
    for (const { handler } of functions) expect({ handler, exists: existsSync(path.join(repoRoot, `${handler}.ts`)) }).toEqual({ handler, exists: true });
  });
});
