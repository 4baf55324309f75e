import { DOCS_PATH } from './reference-paths';
import { defineRoute } from '../route-definition';
import type { ReferenceRouteDocs } from '../route-docs';

export const docsPageRoute = defineRoute({
  name: 'docsPage',
  method: 'GET',
  path: DOCS_PATH,
  handler: 'functions/docs/get-docs-page',
  summary: "The API reference page (Scalar's API reference of the OpenAPI document)",
  access: 'public',
  permissions: {},
  reference: true,
});

/** Its sample request (a route of the API reference is no operation of the OpenAPI document): a function, so that esbuild leaves it out of the handler's bundle. */
export const docsPageDocs = (): ReferenceRouteDocs => ({
  sample: () => ({ credential: null, status: 200 }),
});
