import { createTemplate } from '../../shared/domain/templates/create-template';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { createTemplateRoute } from '../../shared/routes/templates/create-template';
import { templateDeps } from '../../shared/wiring/template-deps';

/** POST /api/v1/organization/{orgId}/templates */
export const handler = idempotentApiHandler(createTemplateRoute, async ({ caller, body }) => {
  return json(201, await createTemplate(templateDeps(), caller.orgId, body));
});
