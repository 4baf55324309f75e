import { runMemberErasure } from '../../shared/domain/erasures/run-member-erasure';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { erasureJobDeps } from '../../shared/wiring/erasure-deps';

/** The erasure job (user.erasure_requested): runs or resumes a member's erasure. Logs ids and counts only. */
export const handler = eventConsumer('runMemberErasure', async (event, delivery) => {
  const outcome = await runMemberErasure(erasureJobDeps(), event, delivery);
  logger.info('member erasure run', {
    event_id: event.id,
    org_id: event.org_id,
    erasure_id: event.data.erasure_id,
    outcome: outcome.kind,
    ...(outcome.kind === 'completed' ? { counts: outcome.erasure.counts } : { reason: outcome.reason }),
  });
});
