import { runSummary } from '../../shared/domain/summaries/run-summary';
import { eventConsumer } from '../../shared/events/event-consumer';
import { delayMessage } from '../../shared/events/queue-retry';
import { logger } from '../../shared/observability/logger';
import { summaryRunDeps } from '../../shared/wiring/summary-deps';

/** The summary consumer (recording.summary_queued): the engine writes it; throttling keeps the message out of sight until the next try. */
export const handler = eventConsumer(
  'runSummary',
  async (event, delivery) => {
    const outcome = await runSummary(summaryRunDeps(), event, delivery);
    logger.info('summary', {
      event_id: event.id,
      org_id: event.org_id,
      recording_id: event.resource.id,
      outcome: typeof outcome === 'string' ? outcome : 'throttled',
    });
    return typeof outcome === 'string' ? undefined : outcome;
  },
  { retryLater: delayMessage },
);
