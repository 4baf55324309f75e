import { OPENAPI_PATH } from './reference-paths';
import { defineRoute } from '../route-definition';
import type { ReferenceRouteDocs } from '../route-docs';

export const getOpenApiDocumentRoute = defineRoute({
  name: 'getOpenApiDocument',
  method: 'GET',
  path: OPENAPI_PATH,
  handler: 'functions/docs/get-open-api-document',
  summary: 'The OpenAPI 3.1 document of the API, its server being the one that serves it',
  access: 'public',
  permissions: {},
  reference: true,
});

/** Its sample request only (no operation of the OpenAPI document): a function, so the handler's bundle leaves it out. */
export const getOpenApiDocumentDocs = (): ReferenceRouteDocs => ({
  sample: () => ({ credential: null, status: 200 }),
});
