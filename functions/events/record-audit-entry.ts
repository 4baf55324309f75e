import { config } from '../../shared/config';
import { recordAuditEntry } from '../../shared/domain/audit/audit-entries';
import { eventConsumer } from '../../shared/events/event-consumer';
import { table } from '../../shared/storage/dynamo';

/** The audit log consumer: every public event becomes one entry of its organization's audit log (a redelivery changes nothing). */
export const handler = eventConsumer('auditLog', async (event) => {
  await recordAuditEntry({ db: table(), retentionDays: config().events.auditRetentionDays }, event);
});
