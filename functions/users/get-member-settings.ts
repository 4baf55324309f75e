import { config } from '../../shared/config';
import { profileCipher } from '../../shared/crypto/configured-cipher';
import { getMemberSettings } from '../../shared/domain/settings/get-member-settings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getMemberSettingsRoute } from '../../shared/routes/users/get-member-settings';
import { table } from '../../shared/storage/dynamo';

/** GET /api/v1/organization/{orgId}/users/{userId}/settings and its public alias. */
export const handler = apiHandler(getMemberSettingsRoute, async ({ caller, path, query }) => {
  const bundle = await getMemberSettings(
    { db: table(), cipher: profileCipher(), models: config().models },
    caller.orgId,
    path.userId,
    query,
  );
  return envelope(bundle);
});
