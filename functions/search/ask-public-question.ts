import { askQuestion } from '../../shared/domain/search/ask-question';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { askPublicQuestionRoute } from '../../shared/routes/search/ask-public-question';
import { askDeps } from '../../shared/wiring/search-deps';

/** POST /api/v1/public/ask (a personal key: its member's own recordings) */
export const handler = idempotentApiHandler(askPublicQuestionRoute, async ({ caller, body }) =>
  envelope(await askQuestion(askDeps(), caller, body)),
);
