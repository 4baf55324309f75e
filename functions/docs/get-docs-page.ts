import { cachedResponse } from '../../shared/http/cached-response';
import { httpHandler } from '../../shared/http/http-handler';
import { basePathOf } from '../../shared/http/request-origin';
import { referencePage } from '../../shared/openapi/reference-page';
import { getDocsPageRoute } from '../../shared/routes/docs/get-docs-page';

/** GET /docs: the interactive API reference, its scripts and document linked under the path it was called by. */
export const handler = httpHandler(getDocsPageRoute, (event) => cachedResponse(event, referencePage(basePathOf(event))));
