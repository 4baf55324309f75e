import { createTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { table } from '../../shared/storage/dynamo';

/** POST /api/v1/organization/{orgId}/templates */
export const handler = apiHandler('createTemplate', async ({ caller, body }) => {
  return json(201, await createTemplate({ db: table(), now: () => new Date() }, caller.orgId, body));
});
