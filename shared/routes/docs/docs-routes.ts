import { getDocsAssetDocs, getDocsAssetRoute } from './get-docs-asset';
import { getDocsPageDocs, getDocsPageRoute } from './get-docs-page';
import { getOpenApiDocumentDocs, getOpenApiDocumentRoute } from './get-open-api-document';
import { defineRouteArea } from '../route-definition';

/**
 * The API reference's routes: the /docs page, its scripts and the OpenAPI document (public, not operations of
 * the document).
 */
export const DOCS_ROUTES = defineRouteArea({
  area: 'docs',
  stack: 'docs',
  routes: [
    { route: getDocsPageRoute, docs: getDocsPageDocs },
    { route: getDocsAssetRoute, docs: getDocsAssetDocs },
    { route: getOpenApiDocumentRoute, docs: getOpenApiDocumentDocs },
  ],
});
