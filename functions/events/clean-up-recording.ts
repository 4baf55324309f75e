import { cleanUpRecording } from '../../shared/domain/recordings/clean-up-recording';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { recordingCleanupDeps } from '../../shared/wiring/recording-deps';

/** Object cleanup (recording.deleted): a deleted recording's related items, objects and unfinished uploads. */
export const handler = eventConsumer('cleanUpRecording', async (event) => {
  const outcome = await cleanUpRecording(recordingCleanupDeps(), event);
  logger.info('deleted recording cleaned up', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, ...outcome });
});
