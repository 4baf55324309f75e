import { getTemplate } from '../../shared/domain/templates/get-template';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getTemplateRoute } from '../../shared/routes/templates/get-template';
import { templateDeps } from '../../shared/wiring/template-deps';

/** GET /api/v1/organization/{orgId}/templates/{templateId} */
export const handler = apiHandler(getTemplateRoute, async ({ caller, path }) =>
  json(200, await getTemplate(templateDeps(), caller.orgId, path.templateId)),
);
