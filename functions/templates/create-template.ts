import { createTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { createTemplateRoute } from '../../shared/routes/templates/create-template';
import { templateDeps } from '../../shared/wiring/template-deps';

/** POST /api/v1/organization/{orgId}/templates */
export const handler = apiHandler(createTemplateRoute, async ({ caller, body }) => {
  return json(201, await createTemplate(templateDeps(), caller.orgId, body));
});
