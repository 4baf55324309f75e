import { updateTemplate } from '../../shared/domain/templates/update-template';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateTemplateRoute } from '../../shared/routes/templates/update-template';
import { templateDeps } from '../../shared/wiring/template-deps';

/** PATCH /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler(updateTemplateRoute, async ({ caller, path, body }) => {
  return json(200, await updateTemplate(templateDeps(), caller.orgId, path.templateId, body));
});
