import { httpHandler } from '../shared/http/http-handler';
import { json } from '../shared/http/responses';

/** GET /health: the function is up. It touches no dependency, so it is cheap to poll. */
export const handler = httpHandler('health', async () => json(200, { status: 'ok' }));
