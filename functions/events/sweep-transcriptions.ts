import { sweepTranscriptions } from '../../shared/domain/transcription/sweep-transcriptions';
import { withChangeContext } from '../../shared/storage/change-stamp';
import { instrumented } from '../../shared/observability/instrumentation';
import { logger } from '../../shared/observability/logger';
import { transcriptionJobDeps } from '../../shared/wiring/transcription-deps';

/** The transcription sweeper (an EventBridge schedule): what is due, oldest first; its writes are the service's. */
export const handler = instrumented(
  async () => {
    const summary = await withChangeContext({ actor: null, correlationId: null }, () => sweepTranscriptions(transcriptionJobDeps()));
    logger.info('transcriptions swept', summary);
  },
  { function: 'sweepTranscriptions' },
);
