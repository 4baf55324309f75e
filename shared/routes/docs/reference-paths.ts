/** Where the API reference and its files are served: the docs routes' paths, and the names the page (shared/openapi/reference-page.ts) loads. */

/** The version of @scalar/api-reference installed (a unit test holds it to package.json): it names the bundle's URL, so that URL may be cached for good. */
export const SCALAR_VERSION = '1.72.1';

/** The paths of the page and of the document: their route modules (shared/routes/docs/) serve them at these. */
export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The file names of the page's scripts, under /docs/. */
export const REFERENCE_ASSETS = {
  /** Versioned: a new Scalar is a new URL. */
  scalarBundle: `scalar-api-reference-${SCALAR_VERSION}.js`,
  config: 'reference-config.js',
} as const;
