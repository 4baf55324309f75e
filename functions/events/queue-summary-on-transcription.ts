import { queueSummaryOnTranscription } from '../../shared/domain/summaries/queue-summary-on-transcription';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { summaryDeps } from '../../shared/wiring/summary-deps';

/** Automatic summary (recording.transcription_completed): one summary with the organization's default template. */
export const handler = eventConsumer('queueSummaryOnTranscription', async (event) => {
  const outcome = await queueSummaryOnTranscription(summaryDeps(), event);
  logger.info('automatic summary', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome });
});
