import { listWebhooks } from '../../shared/domain/webhooks/list-webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listWebhooksRoute } from '../../shared/routes/webhooks/list-webhooks';
import { webhookDeps } from '../../shared/wiring/webhook-deps';

/** GET /api/v1/organization/{orgId}/webhooks */
export const handler = apiHandler(listWebhooksRoute, async ({ caller }) => json(200, await listWebhooks(webhookDeps(), caller.orgId)));
