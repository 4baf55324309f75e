import { updateOrgVocabulary } from '../../shared/domain/transcript-settings/vocabulary';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { updateVocabularyRoute } from '../../shared/routes/governance/update-vocabulary';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** PUT /api/v1/organization/{orgId}/vocabulary */
export const handler = apiHandler(updateVocabularyRoute, async ({ caller, body }) =>
  json(200, await updateOrgVocabulary(recordingDeps(), caller, body)),
);
