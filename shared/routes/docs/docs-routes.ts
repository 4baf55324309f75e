import { docsAssetDocs, docsAssetRoute } from './get-docs-asset';
import { docsPageDocs, docsPageRoute } from './get-docs-page';
import { openApiDocumentDocs, openApiDocumentRoute } from './get-openapi-document';

/**
 * The API reference's routes: the /docs page, its scripts and the OpenAPI document (public, not operations of
 * the document). In manifest order: the order of the OpenAPI document, the stack and the sample requests.
 */
export const DOCS_ROUTES = [
  { route: docsPageRoute, docs: docsPageDocs },
  { route: docsAssetRoute, docs: docsAssetDocs },
  { route: openApiDocumentRoute, docs: openApiDocumentDocs },
] as const;
