import { cachedResponse, entityTag, type CacheableRepresentation } from '../../shared/http/cached-response';
import { NotFoundError } from '../../shared/core/errors';
import { httpHandler } from '../../shared/http/http-handler';
import { readScalarBundle } from '../../shared/openapi/reference-files';
import { IMMUTABLE_CACHE, referenceConfigScript } from '../../shared/openapi/reference-page';
import { REFERENCE_ASSETS } from '../../shared/routes/docs/reference-paths';
import { getDocsAssetRoute } from '../../shared/routes/docs/get-docs-asset';

const tagged = (representation: CacheableRepresentation) => ({ representation, tag: entityTag(representation.body) });
const config = tagged(referenceConfigScript());
// Scalar's bundle (4 MB) is read and tagged on its first request, once per container.
let scalar: ReturnType<typeof tagged> | undefined;

/** The page's scripts by name (a Map: a name such as `constructor` is just unknown). */
const ASSETS = new Map<string, () => ReturnType<typeof tagged>>([
  [
    REFERENCE_ASSETS.scalarBundle,
    () => (scalar ??= tagged({ contentType: 'text/javascript; charset=utf-8', body: readScalarBundle(), cacheControl: IMMUTABLE_CACHE })),
  ],
  [REFERENCE_ASSETS.config, () => config],
]);

/** GET /docs/{asset}: a script of the reference page (Scalar's bundle, its configuration); any other name is 404. */
export const handler = httpHandler(getDocsAssetRoute, (event) => {
  const asset = ASSETS.get(event.pathParameters?.asset ?? '');
  if (!asset) throw new NotFoundError('ROUTE_NOT_FOUND', 'The API reference has no such file.');
  const { representation, tag } = asset();
  return cachedResponse(event, representation, tag);
});
