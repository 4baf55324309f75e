import { isOperation, listEndpoints } from '../../shared/routes/manifest';
import { REFERENCE_CSP } from '../../shared/openapi/reference-page';
import { REFERENCE_ASSETS, SCALAR_VERSION } from '../../shared/routes/docs/reference-paths';
import { localDeployment } from '../support/api';

/**
 * The API reference as the local server publishes it (the same handlers the stack deploys,
 * routes of the manifest): the OpenAPI document, the /docs page and its scripts, public and
 * cached. The page rendered in a browser: docs-browser.test.ts.
 */
const { runtime } = localDeployment();
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${runtime.apiUrl}${path}`, { headers });

describe('GET /api/v1/openapi.json', () => {
  it('is the OpenAPI 3.1 document of every operation (not of the reference itself), its server being this deployment', async () => {
    const response = await get('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers.map((server) => server.url)).toEqual([runtime.apiUrl]);
    for (const endpoint of listEndpoints().filter(isOperation))
      expect(document.paths[endpoint.path]?.[endpoint.method.toLowerCase()]).toBeDefined();
    expect(Object.keys(document.paths)).not.toContain('/docs');
    expect(Object.keys(document.paths)).not.toContain('/api/v1/openapi.json');
  });

  it('needs no credential, is cached briefly, and answers 304 to its ETag', async () => {
    const first = await get('/api/v1/openapi.json');
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get('/api/v1/openapi.json', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // A bearer credential changes nothing: the route has no authorizer.
    expect((await get('/api/v1/openapi.json', { authorization: 'Bearer not-a-key' })).status).toBe(200);
  });
});

describe('GET /docs and its scripts', () => {
  it('serves the page under its Content-Security-Policy, with its scripts as files of the origin', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(REFERENCE_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain(`<script defer src="/docs/${REFERENCE_ASSETS.config}"></script>`);
    expect(html).toContain(`<script defer src="/docs/${REFERENCE_ASSETS.scalarBundle}"></script>`);
    expect(html).toContain('data-openapi-url="/api/v1/openapi.json"');
    // No inline script, nothing from another origin.
    expect(html.match(/<script[^>]*>/g)!.every((tag) => / src="\/docs\//.test(tag))).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("serves Scalar's bundle of the installed version, cached for good, and its configuration briefly", async () => {
    const scalar = await get(`/docs/${REFERENCE_ASSETS.scalarBundle}`);
    expect(scalar.status).toBe(200);
    expect(scalar.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(scalar.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(REFERENCE_ASSETS.scalarBundle).toContain(SCALAR_VERSION);
    const bundle = await scalar.text();
    expect(bundle.length).toBeGreaterThan(1_000_000);
    expect((await get(`/docs/${REFERENCE_ASSETS.scalarBundle}`, { 'if-none-match': scalar.headers.get('etag')! })).status).toBe(304);

    const config = await get(`/docs/${REFERENCE_ASSETS.config}`);
    expect(config.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await config.text()).toContain('withDefaultFonts: false');
  });

  it('answers 404 ROUTE_NOT_FOUND, in the error envelope, for a file it does not have', async () => {
    for (const name of ['nothing.js', 'scalar-api-reference-0.0.1.js', 'constructor']) {
      const response = await get(`/docs/${name}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        success: false,
        data: null,
        error: 'ROUTE_NOT_FOUND',
        message: 'The API reference has no such file.',
      });
    }
  });
});
