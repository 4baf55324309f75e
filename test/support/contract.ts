import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { createPathMatcher, type PathMatch } from '../../shared/http/path-template';
import { openApiDocument } from '../../shared/openapi/document';

/**
 * The contract check: a response the API gave must be one the OpenAPI document allows,
 * its status code declared for the operation, a refusal's error code one of those the
 * document lists for that operation and status (`x-error-codes`), each header the document
 * knows (its `components.headers`) declared on that response, and its body valid against
 * that status's schema.
 */

type Json = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  responses: Json;
}

let compiled:
  | {
      operations: Operation[];
      matchPath: (pathname: string) => PathMatch | undefined;
      ajv: Ajv2020;
      validators: Map<string, ValidateFunction>;
      document: Json;
    }
  | undefined;

function state() {
  if (!compiled) {
    const document = openApiDocument();
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(document, 'openapi.json');
    const operations: Operation[] = [];
    for (const [template, item] of Object.entries<Json>(document.paths)) {
      for (const [method, op] of Object.entries<Json>(item))
        operations.push({ method: method.toUpperCase(), template, responses: op.responses });
    }
    compiled = { operations, matchPath: createPathMatcher(Object.keys(document.paths)), ajv, validators: new Map(), document };
  }
  return compiled;
}

/** JSON-pointer escape of one path segment. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The operation of the document that serves a method and URL path, if any: as API Gateway
 * routes, the path selects the most specific path template, then the method its operation.
 */
export function findOperation(method: string, path: string): Operation | undefined {
  const { operations, matchPath } = state();
  const match = matchPath(path);
  return match && operations.find((op) => op.template === match.template && op.method === method.toUpperCase());
}

/**
 * Checks one response against the document. Returns undefined when it conforms, or an
 * explanation of the mismatch. Requests to no documented operation are not checked.
 */
export function contractViolation(
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Iterable<string> = [],
): string | undefined {
  const operation = findOperation(method, path);
  if (!operation) return undefined;
  const { ajv, validators, document } = state();
  const where = `${method.toUpperCase()} ${operation.template}`;
  recordCheck(`${where} ${status}`);
  let response: Json | undefined = operation.responses[String(status)];
  if (!response)
    return `${where} answered ${status}, which the OpenAPI document does not declare (declared: ${Object.keys(operation.responses).join(', ')}). Body: ${JSON.stringify(body)}`;
  let ref = `openapi.json#/paths/${pointer(operation.template)}/${method.toLowerCase()}/responses/${status}`;
  if (response.$ref) {
    ref = `openapi.json${response.$ref}`;
    response = response.$ref
      .split('/')
      .slice(1)
      .reduce((node: Json, key: string) => node[key], document) as Json;
  }
  const listed: string[] | undefined = response['x-error-codes'];
  const code = (body as Json | null | undefined)?.error;
  if (listed && typeof code === 'string' && !listed.includes(code)) {
    return `${where} answered ${status} ${code}, an error code the OpenAPI document does not list for this operation and status (listed: ${listed.join(', ')}). Body: ${JSON.stringify(body).slice(0, 2000)}`;
  }
  const undeclared = undeclaredHeaders(response, headers);
  if (undeclared.length)
    return `${where} answered ${status}${typeof code === 'string' ? ` ${code}` : ''} with ${undeclared.join(', ')}, which the OpenAPI document does not declare on that response.`;
  if (!response.content?.['application/json']) return undefined;
  // A text answer (Get transcript's vtt, srt, txt) of an operation that documents text media types: its format's own tests parse it.
  if (typeof body === 'string' && Object.keys(response.content).some((mediaType) => mediaType !== 'application/json')) return undefined;
  ref += '/content/application~1json/schema';
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`contract check: no schema at ${ref}`);
    validators.set(ref, validate);
  }
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
  );
  return `${where} answered ${status} with a body the OpenAPI document does not allow: ${errors.join('; ')}. Body: ${JSON.stringify(body).slice(0, 2000)}`;
}

/** The headers of a response that the document knows (its header components) but does not declare on the documented response. */
function undeclaredHeaders(response: Json, headers: Iterable<string>): string[] {
  const known = new Map(Object.keys(state().document.components.headers ?? {}).map((name) => [name.toLowerCase(), name]));
  const declared = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
  return [...new Set([...headers].map((name) => name.toLowerCase()))]
    .filter((name) => known.has(name) && !declared.has(name))
    .map((name) => known.get(name)!);
}

const CHECKS_FILE = 'contract-checks.log';

/** Notes a checked response in the shared deployment's data directory (for the coverage summary). */
function recordCheck(line: string): void {
  const dataDir = process.env.TEST_LOCAL_DATA_DIR;
  if (dataDir) appendFileSync(path.join(dataDir, CHECKS_FILE), `${line}\n`);
}

/** What the contract check saw in a test run: responses checked, and operations never exercised. */
export function contractCoverage(dataDir: string): { checked: number; statuses: Map<string, Set<string>>; unexercised: string[] } {
  const file = path.join(dataDir, CHECKS_FILE);
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const statuses = new Map<string, Set<string>>();
  for (const line of lines) {
    const at = line.lastIndexOf(' ');
    const key = line.slice(0, at);
    statuses.set(key, (statuses.get(key) ?? new Set()).add(line.slice(at + 1)));
  }
  const unexercised = state()
    .operations.map((op) => `${op.method} ${op.template}`)
    .filter((key) => !statuses.has(key));
  return { checked: lines.length, statuses, unexercised };
}
