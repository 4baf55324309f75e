import { cachedResponse } from '../../shared/http/cached-response';
import { httpHandler } from '../../shared/http/http-handler';
import { publicBaseUrl } from '../../shared/http/request-origin';
import { readOpenApiDocument } from '../../shared/openapi/reference-files';
import { servedDocument } from '../../shared/openapi/reference-page';
import { getOpenApiDocumentRoute } from '../../shared/routes/docs/get-open-api-document';

let document: Record<string, unknown> | undefined;

/** GET /api/v1/openapi.json: the OpenAPI document, whose server is the API as this request called it (stage or base path included). */
export const handler = httpHandler(getOpenApiDocumentRoute, (event) =>
  cachedResponse(event, servedDocument((document ??= readOpenApiDocument()), publicBaseUrl(event))),
);
