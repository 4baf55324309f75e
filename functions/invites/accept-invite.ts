import { acceptInvite } from '../../shared/domain/invites/invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { AcceptInviteBody } from '../../shared/schemas/invites';
import { table } from '../../shared/storage/dynamo';

/** POST /api/v1/organization/invites/accept (an ID token; the organization comes from the invite) */
export const handler = apiHandler('acceptInvite', async ({ principal, body }) => {
  const { token } = parseInput(AcceptInviteBody, body ?? {}, { unknownKey: 'field' });
  return json(200, await acceptInvite({ db: table(), now: () => new Date() }, principal, token));
});
