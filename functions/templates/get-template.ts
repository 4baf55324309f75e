import { readTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler('getTemplate', async ({ caller, path }) =>
  json(200, await readTemplate({ db: table(), now: () => new Date() }, caller.orgId, path.templateId)),
);
