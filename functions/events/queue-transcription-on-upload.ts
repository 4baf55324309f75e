import { queueTranscriptionOnUpload } from '../../shared/domain/transcription/queue-transcription-on-upload';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** Automatic transcription (recording.uploaded): queued when the recorder's auto_transcription is on. */
export const handler = eventConsumer('queueTranscriptionOnUpload', async (event) => {
  const outcome = await queueTranscriptionOnUpload(transcriptionDeps(), event);
  logger.info('automatic transcription', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome });
});
