import { updateMemberSettings } from '../../shared/domain/settings/update-member-settings';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { logger } from '../../shared/observability/logger';
import { countMetric } from '../../shared/observability/metrics';
import { updateMemberSettingsRoute } from '../../shared/routes/users/update-member-settings';
import { memberSettingsDeps } from '../../shared/wiring/member-settings-deps';

/** PATCH /api/v1/organization/{orgId}/users/{userId}/settings and its public alias. */
export const handler = apiHandler(updateMemberSettingsRoute, async ({ caller, path, body, correlationId }) => {
  const target = { orgId: caller.orgId, userId: path.userId };
  const result = await updateMemberSettings(
    memberSettingsDeps(),
    target,
    { actor: caller.actor, correlationId, source: 'org_admin_api' },
    body,
  );
  // The audit line names what changed, never the content (profiles and preferences stay out of logs).
  logger.info('member settings updated', {
    org_id: target.orgId,
    target_user_id: target.userId,
    actor: caller.actor,
    changed_sections: result.changed_sections,
    correlation_id: correlationId,
  });
  countMetric('MemberSettingsUpdated');
  return json(200, { success: true, applied: result.applied, profile_version: result.profile_version });
});
