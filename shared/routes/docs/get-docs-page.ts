import { DOCS_PATH } from './reference-paths';
import { defineRoute } from '../route-definition';
import type { ReferenceRouteDocs } from '../route-docs';

export const getDocsPageRoute = defineRoute({
  name: 'getDocsPage',
  method: 'GET',
  path: DOCS_PATH,
  handler: 'functions/docs/get-docs-page',
  summary: "The API reference page (Scalar's API reference of the OpenAPI document)",
  access: 'public',
  permissions: {},
  reference: true,
});

/** Its sample request only (no operation of the OpenAPI document): a function, so the handler's bundle leaves it out. */
export const getDocsPageDocs = (): ReferenceRouteDocs => ({
  sample: () => ({ credential: null, status: 200 }),
});
