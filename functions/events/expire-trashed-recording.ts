import { config } from '../../shared/config';
import { expireTrashedRecording } from '../../shared/domain/recordings/trash-retention';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { table } from '../../shared/storage/dynamo';

/** Trash retention (recording.retention_due): a recording in the trash for TRASH_RETENTION_DAYS is deleted for good. */
export const handler = eventConsumer('trashRetention', async (event) => {
  const deps = { db: table(), now: () => new Date(), trashRetentionDays: config().events.trashRetentionDays };
  const outcome = await expireTrashedRecording(deps, event);
  logger.info('trash retention ran', { event_id: event.id, org_id: event.org_id, recording_id: event.resource.id, outcome });
});
