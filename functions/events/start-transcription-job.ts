import { startTranscriptionJob } from '../../shared/domain/transcription/start-transcription-job';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { transcriptionJobDeps } from '../../shared/wiring/transcription-deps';

/** Transcription start (recording.transcription_queued): the attempt's Transcribe job. */
export const handler = eventConsumer('startTranscriptionJob', async (event) => {
  const outcome = await startTranscriptionJob(transcriptionJobDeps(), event);
  logger.info('transcription job start', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome });
});
