import { docsAssetDocs, docsAssetRoute } from './get-docs-asset';
import { docsPageDocs, docsPageRoute } from './get-docs-page';
import { openApiDocumentDocs, openApiDocumentRoute } from './get-openapi-document';
import { defineRouteArea } from '../route-definition';

/**
 * The API reference's routes: the /docs page, its scripts and the OpenAPI document (public, not operations of
 * the document).
 */
export const DOCS_ROUTES = defineRouteArea({
  area: 'docs',
  stack: 'docs',
  routes: [
    { route: docsPageRoute, docs: docsPageDocs },
    { route: docsAssetRoute, docs: docsAssetDocs },
    { route: openApiDocumentRoute, docs: openApiDocumentDocs },
  ],
});
