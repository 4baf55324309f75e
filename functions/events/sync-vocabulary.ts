import { syncVocabulary } from '../../shared/domain/transcript-settings/sync-vocabulary';
import { eventConsumer } from '../../shared/events/event-consumer';
import { delayMessage } from '../../shared/events/queue-retry';
import { logger } from '../../shared/observability/logger';
import { vocabularySyncDeps } from '../../shared/wiring/vocabulary-deps';

/** The vocabulary consumer (organization.vocabulary_updated): Transcribe's vocabulary follows the terms; while PENDING, the message comes back later. */
export const handler = eventConsumer(
  'syncVocabulary',
  async (event, delivery) => {
    const outcome = await syncVocabulary(vocabularySyncDeps(), event.org_id, delivery);
    logger.info('vocabulary sync', {
      event_id: event.id,
      org_id: event.org_id,
      outcome: typeof outcome === 'string' ? outcome : 'pending',
    });
    return typeof outcome === 'string' ? undefined : outcome;
  },
  { retryLater: delayMessage },
);
