import { REFERENCE_ASSETS } from './reference-paths';
import { defineRoute } from '../route-definition';
import type { ReferenceRouteDocs } from '../route-docs';

export const getDocsAssetRoute = defineRoute({
  name: 'getDocsAsset',
  method: 'GET',
  path: '/docs/{asset}',
  handler: 'functions/docs/get-docs-asset',
  summary: "A script of the API reference page: Scalar's browser bundle, or its configuration",
  access: 'public',
  permissions: {},
  reference: true,
});

/** Its sample request only (no operation of the OpenAPI document): a function, so the handler's bundle leaves it out. */
export const getDocsAssetDocs = (): ReferenceRouteDocs => ({
  // The page's configuration script: Scalar's bundle is 4 MB, too large for a sample event's answer.
  sample: () => ({ credential: null, path: { asset: REFERENCE_ASSETS.config }, status: 200 }),
});
