import { expireTrashedRecording } from '../../shared/domain/recordings/expire-trashed-recording';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** Trash retention (recording.retention_due): a recording in the trash for TRASH_RETENTION_DAYS is deleted for good. */
export const handler = eventConsumer('expireTrashedRecording', async (event) => {
  const outcome = await expireTrashedRecording(recordingDeps(), event);
  logger.info('trash retention ran', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome });
});
