import { httpHandler } from '../../shared/http/http-handler';
import { json } from '../../shared/http/responses';
import { healthRoute } from '../../shared/routes/health/health';

/** GET /health: the function is up. It touches no dependency, so it is cheap to poll. */
export const handler = httpHandler(healthRoute, () => json(200, { status: 'ok' }));
