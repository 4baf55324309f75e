import { readTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getTemplateRoute } from '../../shared/routes/templates/get-template';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler(getTemplateRoute, async ({ caller, path }) =>
  json(200, await readTemplate({ db: table(), now: () => new Date() }, caller.orgId, path.templateId)),
);
