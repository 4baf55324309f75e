import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as v from 'valibot';
import { ROUTE_DOCS, ROUTES, type OperationRouteName, type RouteName } from '../../shared/routes/manifest';
import type { RouteDefinition } from '../../shared/routes/route-definition';

/**
 * What of a route can be recognised in a minified bundle: its summary, its documentation's
 * description, the strings of its examples, and the descriptions of its request schemas. The
 * artefact tests look for other routes' in each handler's bundle (there must be none).
 */

const repoRoot = path.resolve(__dirname, '../..');

/** A text as esbuild prints it in a bundle (ASCII only): backslashes, line breaks and non-ASCII characters escaped. */
const printed = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * What a bundle holds verbatim wherever it holds a text: the text as esbuild prints it (it quotes
 * a string with a quote the string does not hold); for a text holding both quotes, the longest
 * run between them. Undefined when that is too short to name the text alone.
 */
export function verbatimFragment(text: string, minLength = 16): string | undefined {
  const body = printed(text);
  const fragment =
    (body.includes("'") && body.includes('"')) || body.includes('`')
      ? body.split(/["'`$]/).reduce((a, b) => (b.length > a.length ? b : a), '')
      : body;
  return fragment.length >= minLength ? fragment : undefined;
}

/** The descriptions (v.description) anywhere in a valibot schema: its pipe, its entries, the schemas it wraps. */
export function schemaDescriptions(schema: unknown, found = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return found;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  if (node.kind === 'metadata' && node.type === 'description' && typeof node.description === 'string') found.add(node.description);
  for (const key of ['pipe', 'entries', 'wrapped', 'item', 'options', 'rest']) {
    const child = node[key];
    if (Array.isArray(child)) child.forEach((c) => schemaDescriptions(c, found, seen));
    else if (child && typeof child === 'object') {
      if (key === 'entries') Object.values(child).forEach((c) => schemaDescriptions(c, found, seen));
      else schemaDescriptions(child, found, seen);
    }
  }
  return found;
}

/** Every string in an example value. */
function exampleStrings(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) value.forEach((item) => exampleStrings(item, found));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => exampleStrings(item, found));
  return found;
}

/** The module of shared/schemas that exports a schema (undefined when none does), and each module's source. */
const schemaModules = new Map<unknown, string>();
const schemaSources = new Map<string, string>();
for (const file of readdirSync(path.join(repoRoot, 'shared/schemas')).filter((name) => name.endsWith('.ts'))) {
  const exported: Record<string, unknown> = require(path.join(repoRoot, 'shared/schemas', file));
  for (const value of Object.values(exported))
    if (value && typeof value === 'object' && !schemaModules.has(value)) schemaModules.set(value, `shared/schemas/${file}`);
  schemaSources.set(`shared/schemas/${file}`, readFileSync(path.join(repoRoot, 'shared/schemas', file), 'utf8'));
}

export interface RouteTexts {
  routeName: RouteName;
  summary: string;
  /** The description and example strings of its documentation (operations only). */
  docs: string[];
  /** Its request schemas' descriptions (those its module writes out, not those it computes), with the module each schema is exported from. */
  requestSchemas: { module: string | undefined; descriptions: string[] }[];
}

/** What of each route a bundle could carry, as verbatim fragments. */
export function routeTexts(): RouteTexts[] {
  return (Object.entries(ROUTES) as [RouteName, RouteDefinition][]).map(([routeName, route]) => {
    const doc = route.reference ? undefined : ROUTE_DOCS[routeName as OperationRouteName];
    const docs = doc ? [doc.description, ...exampleStrings(doc.examples)] : [];
    const schemas = [route.request?.query, route.request?.body].filter((schema): schema is v.GenericSchema => schema !== undefined);
    return {
      routeName,
      summary: route.summary,
      docs: [...new Set(docs.map((text) => verbatimFragment(text)).filter((fragment): fragment is string => fragment !== undefined))],
      requestSchemas: schemas.map((schema) => {
        const module = schemaModules.get(schema);
        const source = module ? schemaSources.get(module)! : '';
        const fragments = [...schemaDescriptions(schema)]
          .map((text) => verbatimFragment(text))
          .filter((fragment): fragment is string => fragment !== undefined);
        return { module, descriptions: fragments.filter((fragment) => source.includes(fragment)) };
      }),
    };
  });
}
