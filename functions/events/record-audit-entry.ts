import { recordAuditEntry } from '../../shared/domain/audit/record-audit-entry';
import { eventConsumer } from '../../shared/events/event-consumer';
import { auditRecorderDeps } from '../../shared/wiring/audit-deps';

/** The audit log consumer: every public event becomes one entry of its organization's audit log (a redelivery changes nothing). */
export const handler = eventConsumer('recordAuditEntry', async (event) => {
  await recordAuditEntry(auditRecorderDeps(), event);
});
