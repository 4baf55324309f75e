import { finishTranscriptionJob } from '../../shared/domain/transcription/finish-transcription-job';
import { transcribeJobConsumer } from '../../shared/events/transcribe-job-consumer';
import { logger } from '../../shared/observability/logger';
import { transcriptionJobDeps } from '../../shared/wiring/transcription-deps';

/** Transcription finish (Transcribe Job State Change on the default bus): the transcript, or why there is none. */
export const handler = transcribeJobConsumer(async (change) => {
  const outcome = await finishTranscriptionJob(transcriptionJobDeps(), change.jobName);
  logger.info('transcription job finished', { job_name: change.jobName, job_status: change.status, outcome });
});
