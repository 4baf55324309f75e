import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { API_MIN_COMPRESSION_KIB } from '../../infra/constructs/api';
import { FUNCTIONS_WITH_REFERENCE_FILES, referenceFileHooks } from '../../infra/constructs/reference-files';
import { openApiDocument } from '../../shared/openapi/document';
import { REFERENCE_FILES, SCALAR_BUNDLE_SOURCE } from '../../shared/openapi/reference-files';
import { listEndpoints, ROUTES } from '../../shared/routes/manifest';
import { listHandlers } from '../../infra/function-list';
import { functionLogicalId, onlyLogicalId, synth, type Json } from './template';

/**
 * The API reference in the stack: /docs, its assets and /api/v1/openapi.json are public
 * methods of the REST API (no authorizer) on their own functions, which carry Scalar's bundle
 * and the OpenAPI document generated at synth beside their bundle; API Gateway compresses
 * responses, so Scalar's 4.4 MB bundle travels gzipped. (The bundled functions serving these
 * files are run in test/integration/artefacts.test.ts.)
 */
describe('the API reference in the stack', () => {
  let template: Template;
  let resources: Record<string, Json>;

  beforeAll(() => {
    template = synth();
    resources = template.toJSON().Resources;
  });

  const referenceEndpoints = listEndpoints().filter((endpoint) => endpoint.route.reference);

  it('serves /docs, /docs/{asset} and /api/v1/openapi.json without an authorizer, each on its function', () => {
    expect(referenceEndpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      'GET /api/v1/openapi.json',
      'GET /docs',
      'GET /docs/{asset}',
    ]);
    const methods = Object.values(resources).filter((r: Json) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.HttpMethod === 'GET');
    for (const endpoint of referenceEndpoints) {
      const fnId = functionLogicalId(template, endpoint.route.handler);
      const method = methods.find((m: Json) => JSON.stringify(m.Properties.Integration?.Uri ?? '').includes(`"${fnId}"`));
      expect({
        path: endpoint.path,
        authorizationType: method?.Properties.AuthorizationType,
        authorizerId: method?.Properties.AuthorizerId,
      }).toEqual({
        path: endpoint.path,
        authorizationType: 'NONE',
        authorizerId: undefined,
      });
    }
  });

  it('gives the reference functions no permission at all (they read nothing but their own files)', () => {
    for (const endpoint of referenceEndpoints) expect(endpoint.route.permissions).toEqual({});
    for (const handler of listHandlers().filter((h) => h.routes.some((r) => ROUTES[r].handler.startsWith('functions/docs/'))))
      expect(handler.permissions).toEqual({});
  });

  it(`compresses responses of ${API_MIN_COMPRESSION_KIB} KiB or more (Accept-Encoding), with no binary media type: every function answers text`, () => {
    const api = resources[onlyLogicalId(template, 'AWS::ApiGateway::RestApi')].Properties;
    expect(api.MinimumCompressionSize).toBe(API_MIN_COMPRESSION_KIB * 1024);
    expect(api.BinaryMediaTypes).toBeUndefined();
  });

  describe('the files the reference functions carry beside their bundle (bundling hooks)', () => {
    let outputDir: string;
    beforeAll(() => {
      outputDir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-reference-files-'));
    });
    afterAll(() => rmSync(outputDir, { recursive: true, force: true }));

    const copyInto = (handler: string) => {
      const hooks = referenceFileHooks(handler)!;
      expect(hooks.beforeBundling('in', outputDir)).toEqual([]);
      for (const command of hooks.afterBundling('in', outputDir)) execSync(command);
    };

    it("copies Scalar's browser bundle from the installed package into the asset function's", () => {
      copyInto(ROUTES.getDocsAsset.handler);
      const copied = readFileSync(path.join(outputDir, REFERENCE_FILES.scalarBundle));
      expect(copied.equals(readFileSync(SCALAR_BUNDLE_SOURCE))).toBe(true);
      // Lambda answers at most 6 MB: the bundle is served as text, under that with room to spare.
      expect(JSON.stringify({ body: copied.toString('utf8') }).length).toBeLessThan(5.5 * 1024 * 1024);
    });

    it("writes the OpenAPI document generated at synth into the document function's", () => {
      copyInto(ROUTES.getOpenApiDocument.handler);
      expect(JSON.parse(readFileSync(path.join(outputDir, REFERENCE_FILES.openApiDocument), 'utf8'))).toEqual(openApiDocument());
    });

    it('adds no hook to any other function', () => {
      expect(FUNCTIONS_WITH_REFERENCE_FILES.sort()).toEqual([ROUTES.getDocsAsset.handler, ROUTES.getOpenApiDocument.handler].sort());
      for (const { handler } of listHandlers())
        if (!FUNCTIONS_WITH_REFERENCE_FILES.includes(handler)) expect(referenceFileHooks(handler)).toBeUndefined();
    });
  });
});
