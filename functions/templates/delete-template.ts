import { deleteTemplate } from '../../shared/domain/templates/delete-template';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { deleteTemplateRoute } from '../../shared/routes/templates/delete-template';
import { templateDeps } from '../../shared/wiring/template-deps';

/** DELETE /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler(deleteTemplateRoute, async ({ caller, path }) => {
  await deleteTemplate(templateDeps(), caller.orgId, path.templateId);
  return json(200, { success: true });
});
