import { listEndpoints } from '../../shared/routes';
import { localDeployment } from '../support/api';

/** The local server publishes the generated OpenAPI document and the reference page. */
const { runtime } = localDeployment();

describe('OpenAPI on the local server', () => {
  it('serves the OpenAPI 3.1 document at /api/v1/openapi.json, with every endpoint', async () => {
    const response = await fetch(`${runtime.apiUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    for (const endpoint of listEndpoints()) expect(document.paths[endpoint.path]?.[endpoint.method.toLowerCase()]).toBeDefined();
  });

  it('serves a self-contained reference page at /docs listing every route', async () => {
    const response = await fetch(`${runtime.apiUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    for (const endpoint of listEndpoints()) expect(html).toContain(endpoint.path);
    expect(html).not.toMatch(/<script|<link/i);
  });
});
