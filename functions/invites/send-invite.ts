import { inviteDeps } from '../../shared/domain/invites/invite-deps';
import { sendInvite } from '../../shared/domain/invites/invites';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { parseInput } from '../../shared/http/validation';
import { SendInviteBody } from '../../shared/schemas/invites';

/** POST /api/v1/organization/{orgId}/invites */
export const handler = apiHandler('sendInvite', async ({ caller, body }) => {
  const request = parseInput(SendInviteBody, body ?? {}, { unknownKey: 'field' });
  return json(201, await sendInvite(inviteDeps(), caller, request));
});
