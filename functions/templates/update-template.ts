import { updateTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateTemplateRoute } from '../../shared/routes/templates/update-template';
import { table } from '../../shared/storage/dynamo';

/** PATCH /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler(updateTemplateRoute, async ({ caller, path, body }) => {
  return json(200, await updateTemplate({ db: table(), now: () => new Date() }, caller.orgId, path.templateId, body));
});
