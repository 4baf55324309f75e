import { runMemberExport } from '../../shared/domain/exports/run-member-export';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { exportRunDeps } from '../../shared/wiring/member-export-run-deps';

/** Member exports (user.export_requested): writes the ZIP of the member's data; ids, states and counts only in the log. */
export const handler = eventConsumer('runMemberExport', async (event, delivery) => {
  const outcome = await runMemberExport(exportRunDeps(), event, delivery);
  logger.info('member export run', {
    event_id: event.id,
    org_id: event.org_id,
    user_id: event.resource.id,
    export_id: String(event.data.export_id),
    outcome: outcome.kind,
    ...(outcome.kind === 'completed' ? { size_bytes: outcome.sizeBytes, counts: outcome.counts } : {}),
    ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
    ...(outcome.kind === 'skipped' ? { why: outcome.why } : {}),
  });
});
