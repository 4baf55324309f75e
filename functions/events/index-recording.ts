import { indexRecording } from '../../shared/domain/search/index-recording';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { indexingDeps } from '../../shared/wiring/search-deps';

/** The indexer (recording.index_due, recording.deleted): the search index follows the recording's current state. */
export const handler = eventConsumer('indexRecording', async (event) => {
  const deps = indexingDeps();
  // A deployment without search (-c search=off) keeps no index: the event is done.
  if (!deps) return undefined;
  const outcome = await indexRecording(deps, event);
  logger.info('recording indexed', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome: outcome.kind });
  return undefined;
});
