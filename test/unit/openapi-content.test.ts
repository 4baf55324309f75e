import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { openApiDocument } from '../../shared/openapi/document';
import { ROUTE_DOCS, ROUTES, type OperationRouteName } from '../../shared/routes/manifest';
import type { RouteDefinition, RouteRequest } from '../../shared/routes/route-definition';

/**
 * What a reader of the OpenAPI document (the /docs page, a generated client) is given: a
 * description of every parameter and every schema property, wherever it is (parameters,
 * request bodies, responses, components), and an example of every request body and success
 * response that the API's own schemas accept.
 */

type Json = Record<string, any>;
const document = openApiDocument();

/** Every schema property of the document, with where it is. */
function properties(node: unknown, at: string, found: { at: string; schema: Json }[] = []): { at: string; schema: Json }[] {
  if (Array.isArray(node)) node.forEach((item, i) => properties(item, `${at}/${i}`, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      // `properties` of a schema (not a property that happens to be named so: its value is a schema then, holding a type).
      if (key === 'properties' && value && typeof value === 'object' && !('type' in value && typeof (value as Json).type === 'string')) {
        for (const [name, schema] of Object.entries<Json>(value)) found.push({ at: `${at}/properties/${name}`, schema });
      }
      properties(value, `${at}/${key}`, found);
    }
  }
  return found;
}

describe('OpenAPI document content', () => {
  it('describes every parameter', () => {
    const undescribed: string[] = [];
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        for (const parameter of (op.parameters ?? []) as Json[]) {
          if (!(typeof parameter.description === 'string' && parameter.description.trim()))
            undescribed.push(`${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`);
        }
      }
    }
    expect(undescribed).toEqual([]);
  });

  it('describes every schema property: request bodies, responses and components', () => {
    const found = properties(document, '#');
    expect(found.length).toBeGreaterThan(500);
    const undescribed = found
      .filter(({ schema }) => !(typeof schema.description === 'string' && schema.description.trim()))
      .map(({ at }) => at);
    expect(undescribed).toEqual([]);
  });

  it('has an example of every request body and every success response', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (op.requestBody && op.requestBody.content['application/json'].example === undefined) missing.push(`${where} request body`);
        for (const [status, response] of Object.entries<Json>(op.responses)) {
          if (/^2/.test(status) && response.content['application/json'].example === undefined) missing.push(`${where} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  describe.each(Object.entries(ROUTE_DOCS))('examples of %s', (routeName, doc) => {
    const { examples } = doc;
    const route: RouteDefinition = ROUTES[routeName as OperationRouteName];
    const request: RouteRequest = route.request ?? {};

    it('has one request body example when the route takes a body, one response example per success status, and no other', () => {
      expect(examples.request !== undefined).toBe(request.body !== undefined);
      expect(Object.keys(examples.responses).sort()).toEqual(Object.keys(doc.responses).sort());
    });

    it('gives examples the valibot schemas accept', () => {
      if (request.body) expect(issuesOf(request.body, examples.request)).toEqual([]);
      for (const [status, schema] of Object.entries(doc.responses))
        expect(issuesOf(schema, examples.responses[Number(status)])).toEqual([]);
    });
  });

  it("takes the examples' ids from the demo fixture (fixtures/demo.json)", () => {
    const fixture = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/demo.json'), 'utf8'));
    const demoIds = new Set<string>(
      JSON.stringify(fixture)
        .match(/"(org|usr|rec|tpl|tag)_demo[A-Za-z0-9_]*"/g)
        ?.map((id) => JSON.parse(id)) ?? [],
    );
    const used = new Set<string>(
      JSON.stringify(Object.values(ROUTE_DOCS).map((doc) => doc.examples))
        .match(/"(org|usr|rec|tpl|tag)_demo[A-Za-z0-9_]*"/g)
        ?.map((id) => JSON.parse(id)) ?? [],
    );
    expect(used.size).toBeGreaterThan(5);
    // A related resource's id may extend its recording's (`rec_demo_standup_summary`).
    expect([...used].filter((id) => ![...demoIds].some((demo) => id === demo || id.startsWith(`${demo}_`)))).toEqual([]);
  });
});

/** What a schema refuses in a value: path and message of each issue. */
function issuesOf(schema: v.GenericSchema, value: unknown): string[] {
  const result = v.safeParse(schema, value);
  return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
}
