import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The files the API reference's functions serve, and where they are read from. A function of
 * the stack carries them next to its bundle: infra/constructs/reference-files.ts copies Scalar's
 * browser bundle from node_modules and writes the OpenAPI document there at synth, so no
 * function generates the document (valibot and every schema) or reads node_modules at run
 * time. Run from the repository (`npm start`, the tests), they are built from the sources.
 */
export const REFERENCE_FILES = {
  /** Scalar's API reference, its standalone browser build (one script, no chunks to load). */
  scalarBundle: 'scalar-api-reference.js',
  /** The OpenAPI document, as openApiDocument() generates it (its server is set per request). */
  openApiDocument: 'openapi.json',
} as const;

export type ReferenceFile = (typeof REFERENCE_FILES)[keyof typeof REFERENCE_FILES];

const repoRoot = path.resolve(__dirname, '../..');

/** Where Scalar's browser bundle is in the installed package (its `browser` entry). */
export const SCALAR_BUNDLE_SOURCE = path.join(repoRoot, 'node_modules/@scalar/api-reference/dist/browser/standalone.js');

/** The file beside the function's bundle, when it carries one. */
function bundled(name: ReferenceFile): string | undefined {
  const file = path.join(__dirname, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Scalar's browser bundle: the copy beside the function's bundle, else the installed package's. */
export function readScalarBundle(): string {
  return bundled(REFERENCE_FILES.scalarBundle) ?? readFileSync(SCALAR_BUNDLE_SOURCE, 'utf8');
}

/**
 * The OpenAPI document: the one written beside the function's bundle at synth, else generated
 * from the sources. The generator is required by a computed path, which esbuild does not
 * follow: a function's bundle never carries it.
 */
export function readOpenApiDocument(): Record<string, unknown> {
  const prebuilt = bundled(REFERENCE_FILES.openApiDocument);
  if (prebuilt) return JSON.parse(prebuilt) as Record<string, unknown>;
  const generator = path.join(repoRoot, 'shared/openapi/document');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openApiDocument } = require(generator) as typeof import('./document');
  return openApiDocument();
}
