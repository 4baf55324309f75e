import { createTemplate } from '../../shared/domain/templates/templates';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { CreateTemplateBody } from '../../shared/schemas/templates';
import { table } from '../../shared/storage/dynamo';

/** POST /api/v1/organization/{orgId}/templates */
export const handler = apiHandler('createTemplate', async ({ caller, body }) => {
  const request = parseInput(CreateTemplateBody, body ?? {}, { unknownKey: 'field' });
  return json(201, await createTemplate({ db: table(), now: () => new Date() }, caller.orgId, request));
});
