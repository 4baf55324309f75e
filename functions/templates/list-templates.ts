import { listOrganizationTemplates } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { table } from '../../shared/storage/dynamo';
import * as v from 'valibot';

/** GET /api/v1/organization/{orgId}/templates */
export const handler = apiHandler('listTemplates', async ({ caller, query }) => {
  parseInput(v.strictObject({}), query);
  return json(200, { templates: await listOrganizationTemplates({ db: table(), now: () => new Date() }, caller.orgId) });
});
