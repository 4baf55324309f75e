import { apiHandler } from '../shared/http/api-handler';
import { json } from '../shared/http/responses';

/** GET /health: the function is up (it touches no dependency, so it is cheap to poll). */
export const handler = apiHandler('health', async () => json(200, { status: 'ok' }));
