import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { lambdaContext, proxyEvent } from '../../infra/local/lambda-events';
import { handler as docsAsset } from '../../functions/docs/get-docs-asset';
import { handler as docsPage } from '../../functions/docs/get-docs-page';
import { handler as openApiDocument } from '../../functions/docs/get-open-api-document';
import { entityTag } from '../../shared/http/cached-response';
import { basePathOf, publicBaseUrl } from '../../shared/http/request-origin';
import { REFERENCE_CONFIG_SCRIPT, REFERENCE_CSP } from '../../shared/openapi/reference-page';
import { REFERENCE_ASSETS, SCALAR_VERSION } from '../../shared/routes/docs/reference-paths';
import { endpointFor, ROUTES, type RouteName } from '../../shared/routes/manifest';

/**
 * The API reference's handlers (functions/docs/): the page, its scripts and the OpenAPI
 * document, with their types, Content-Security-Policy, caching (ETag, 304), and the server
 * URL of the API as the request called it: on API Gateway's default endpoint, the stage is
 * part of the path (`/prod/docs`), on a custom domain the base path is (`/v1/docs`).
 */
type Handler = (event: APIGatewayProxyEvent, context: ReturnType<typeof lambdaContext>) => Promise<APIGatewayProxyResult>;

/** A proxy event as API Gateway sends it: `calledPath` is the path as the client called it (requestContext.path). */
function eventOf(
  routeName: RouteName,
  options: { pathname?: string; calledPath?: string; headers?: Record<string, string>; params?: Record<string, string> } = {},
): APIGatewayProxyEvent {
  const route = ROUTES[routeName];
  const pathname = options.pathname ?? route.path;
  return proxyEvent({
    request: { httpVersion: '1.1', socket: { remoteAddress: '203.0.113.9' } },
    url: new URL(`https://placeholder${pathname}`),
    headers: options.headers ?? { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https' },
    body: null,
    endpoint: endpointFor(routeName, route.path),
    params: options.params ?? {},
    stage: 'prod',
    authorizerContext: null,
    ...(options.calledPath ? { calledPath: options.calledPath } : {}),
  });
}

const invoke = (handler: unknown, event: APIGatewayProxyEvent) => (handler as Handler)(event, lambdaContext('docs'));

describe('the server URL of the API, from the request', () => {
  it("is the stage on API Gateway's default endpoint", () => {
    const event = eventOf('getOpenApiDocument');
    expect(event.requestContext.path).toBe('/prod/api/v1/openapi.json');
    expect(basePathOf(event)).toBe('/prod');
    expect(publicBaseUrl(event)).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it("is a custom domain's base path, or its root", () => {
    const headers = { host: 'api.example.com', 'x-forwarded-proto': 'https' };
    expect(publicBaseUrl(eventOf('getOpenApiDocument', { headers, calledPath: '/v1/api/v1/openapi.json' }))).toBe(
      'https://api.example.com/v1',
    );
    expect(publicBaseUrl(eventOf('getOpenApiDocument', { headers, calledPath: '/api/v1/openapi.json' }))).toBe('https://api.example.com');
  });

  it('fills the path parameters of the resource (the asset route)', () => {
    const event = eventOf('getDocsAsset', { pathname: `/docs/${REFERENCE_ASSETS.config}`, params: { asset: REFERENCE_ASSETS.config } });
    expect(basePathOf(event)).toBe('/prod');
  });

  it('is plain http with the Host of the local server (no X-Forwarded-Proto, no stage in its paths)', () => {
    const event = eventOf('getOpenApiDocument', { headers: { host: '127.0.0.1:3000' }, calledPath: '/api/v1/openapi.json' });
    expect(publicBaseUrl(event)).toBe('http://127.0.0.1:3000');
  });
});

describe('GET /api/v1/openapi.json (get-open-api-document)', () => {
  it('serves the document whose one server is the API as called, stage included: "try it" calls that deployment', async () => {
    const response = await invoke(openApiDocument, eventOf('getOpenApiDocument'));
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
    });
    const document = JSON.parse(response.body);
    expect(document.servers).toEqual([{ url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod', description: expect.any(String) }]);
    expect(document.paths['/api/v1/organization/{orgId}/users'].get.operationId).toBe('listUsers');
    expect(document.paths['/docs']).toBeUndefined();
    expect(document.components.securitySchemes).toEqual({
      idToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it('answers 304 with no body to its own ETag (weak comparison, lists and *), 200 to another', async () => {
    const first = await invoke(openApiDocument, eventOf('getOpenApiDocument'));
    const etag = String(first.headers!.etag);
    expect(etag).toBe(entityTag(first.body));
    const headers = (value: string) => ({
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'x-forwarded-proto': 'https',
      'If-None-Match': value,
    });
    for (const value of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const response = await invoke(openApiDocument, eventOf('getOpenApiDocument', { headers: headers(value) }));
      expect({ value, status: response.statusCode, body: response.body, etag: response.headers!.etag }).toEqual({
        value,
        status: 304,
        body: '',
        etag,
      });
    }
    expect((await invoke(openApiDocument, eventOf('getOpenApiDocument', { headers: headers('W/"other"') }))).statusCode).toBe(200);
    // Another server is another document, with another tag.
    const other = await invoke(
      openApiDocument,
      eventOf('getOpenApiDocument', { headers: { host: 'api.example.com', 'x-forwarded-proto': 'https', 'if-none-match': etag } }),
    );
    expect(other.statusCode).toBe(200);
  });
});

describe('GET /docs (get-docs-page)', () => {
  it('is HTML under the strict CSP, linking its scripts and document under the stage', async () => {
    const response = await invoke(docsPage, eventOf('getDocsPage'));
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': REFERENCE_CSP,
      'referrer-policy': 'no-referrer',
      'cache-control': 'public, max-age=300',
      etag: entityTag(response.body),
    });
    expect(response.body).toContain(`<script defer src="/prod/docs/${REFERENCE_ASSETS.config}"></script>`);
    expect(response.body).toContain(`<script defer src="/prod/docs/${REFERENCE_ASSETS.scalarBundle}"></script>`);
    expect(response.body).toContain('data-openapi-url="/prod/api/v1/openapi.json"');
  });

  it('has a CSP that allows scripts and requests of the origin only, no inline script or eval, and no framing', () => {
    const directives = Object.fromEntries(REFERENCE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(REFERENCE_CSP).not.toMatch(/unsafe-eval|https?:|\*/);
  });

  it('answers 304 to its ETag', async () => {
    const first = await invoke(docsPage, eventOf('getDocsPage'));
    const again = await invoke(docsPage, eventOf('getDocsPage', { headers: { 'if-none-match': String(first.headers!.etag) } }));
    // Without Host the page is the same: it names paths, not hosts.
    expect(again.statusCode).toBe(304);
  });
});

describe('GET /docs/{asset} (get-docs-asset)', () => {
  const assetEvent = (asset: string, headers?: Record<string, string>) =>
    eventOf('getDocsAsset', { pathname: `/docs/${encodeURIComponent(asset)}`, params: { asset }, headers });

  it("serves Scalar's bundle of the installed version, immutable, and answers 304 to its ETag", async () => {
    const response = await invoke(docsAsset, assetEvent(REFERENCE_ASSETS.scalarBundle));
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(response.body).toBe(
      readFileSync(path.join(__dirname, '../../node_modules/@scalar/api-reference/dist/browser/standalone.js'), 'utf8'),
    );
    const again = await invoke(docsAsset, assetEvent(REFERENCE_ASSETS.scalarBundle, { 'if-none-match': String(response.headers!.etag) }));
    expect({ status: again.statusCode, body: again.body }).toEqual({ status: 304, body: '' });
  });

  it('serves the configuration script, which turns off everything that calls out of the origin', async () => {
    const response = await invoke(docsAsset, assetEvent(REFERENCE_ASSETS.config));
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
    expect(response.body).toBe(REFERENCE_CONFIG_SCRIPT);
    for (const setting of [
      'withDefaultFonts: false',
      'telemetry: false',
      "showDeveloperTools: 'never'",
      'mcp: { disabled: true }',
      'agent: { disabled: true }',
      'hideClientButton: true',
    ]) {
      expect(response.body).toContain(setting);
    }
    expect(response.body).not.toMatch(/proxyUrl|https?:\/\//);
  });

  it.each(['nothing.js', 'scalar-api-reference-0.0.1.js', 'constructor', '__proto__', '../package.json'])(
    'answers 404 ROUTE_NOT_FOUND for %j',
    async (asset) => {
      const response = await invoke(docsAsset, assetEvent(asset));
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        data: null,
        error: 'ROUTE_NOT_FOUND',
        message: 'The API reference has no such file.',
      });
    },
  );

  it('names the Scalar version installed (package.json), so that a new version is a new URL', () => {
    const installed = JSON.parse(readFileSync(path.join(__dirname, '../../node_modules/@scalar/api-reference/package.json'), 'utf8')) as {
      version: string;
    };
    expect(SCALAR_VERSION).toBe(installed.version);
    expect(REFERENCE_ASSETS.scalarBundle).toBe(`scalar-api-reference-${installed.version}.js`);
  });
});
