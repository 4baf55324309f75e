import { askQuestion } from '../../shared/domain/search/ask-question';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { askQuestionRoute } from '../../shared/routes/search/ask-question';
import { askDeps } from '../../shared/wiring/search-deps';

/** POST /api/v1/organization/{orgId}/ask */
export const handler = idempotentApiHandler(askQuestionRoute, async ({ caller, body }) =>
  json(200, await askQuestion(askDeps(), caller, body)),
);
