import { sweepRetention } from '../../shared/domain/governance/retention';
import { instrumented } from '../../shared/observability/instrumentation';
import { logger } from '../../shared/observability/logger';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** The retention sweep (an EventBridge schedule, once a day): its moves are the service's, with the reason `retention_policy`. */
export const handler = instrumented(
  async () => {
    const sweeps = await sweepRetention(recordingDeps());
    for (const sweep of sweeps) logger.info('retention swept', { ...sweep });
  },
  { function: 'sweepRetention' },
);
