import { getMemberSettings } from '../../shared/domain/settings/get-member-settings';
import { apiHandler } from '../../shared/http/api-handler';
import { envelope } from '../../shared/http/responses';
import { getMemberSettingsRoute } from '../../shared/routes/users/get-member-settings';
import { memberSettingsDeps } from '../../shared/wiring/member-settings-deps';

/** GET /api/v1/organization/{orgId}/users/{userId}/settings and its public alias. */
export const handler = apiHandler(getMemberSettingsRoute, async ({ caller, path, query }) => {
  const bundle = await getMemberSettings(memberSettingsDeps(), caller.orgId, path.userId, query);
  return envelope(bundle);
});
