import { listTemplates } from '../../shared/domain/templates/list-templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { listTemplatesRoute } from '../../shared/routes/templates/list-templates';
import { templateDeps } from '../../shared/wiring/template-deps';

/** GET /api/v1/organization/{orgId}/templates?page=&limit= */
export const handler = apiHandler(listTemplatesRoute, async ({ caller, query }) =>
  json(200, await listTemplates(templateDeps(), caller.orgId, query)),
);
