import { listOrganizationWebhooks } from '../../shared/domain/webhooks/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listWebhooksRoute } from '../../shared/routes/webhooks/list-webhooks';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/webhooks */
export const handler = apiHandler(listWebhooksRoute, async ({ caller }) => json(200, await listOrganizationWebhooks({ db: table() }, caller.orgId)));
