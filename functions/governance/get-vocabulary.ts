import { getOrgVocabulary } from '../../shared/domain/transcript-settings/vocabulary';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { getVocabularyRoute } from '../../shared/routes/governance/get-vocabulary';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** GET /api/v1/organization/{orgId}/vocabulary */
export const handler = apiHandler(getVocabularyRoute, async ({ caller }) =>
  json(200, await getOrgVocabulary(recordingDeps(), caller.orgId)),
);
