import { runTranslation } from '../../shared/domain/translations/run-translation';
import { eventConsumer } from '../../shared/events/event-consumer';
import { delayMessage } from '../../shared/events/queue-retry';
import { logger } from '../../shared/observability/logger';
import { countMetric } from '../../shared/observability/metrics';
import { translationRunDeps } from '../../shared/wiring/translation-deps';

/** The translation consumer (recording.translation_queued): translates the transcript and the latest summary; throttled, it asks for its message back later. */
export const handler = eventConsumer(
  'runTranslation',
  async (event, delivery) => {
    const outcome = await runTranslation(translationRunDeps(), event, delivery);
    logger.info('translation run', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome: outcome.kind });
    if (outcome.kind === 'completed') countMetric('TranslationsCompleted');
    if (outcome.kind === 'failed') countMetric('TranslationsFailed');
    if ('characters' in outcome && outcome.characters) countMetric('TranslatedCharacters', outcome.characters);
    return outcome.kind === 'retry' ? { retryAfterSeconds: outcome.afterSeconds } : undefined;
  },
  { retryLater: delayMessage },
);
