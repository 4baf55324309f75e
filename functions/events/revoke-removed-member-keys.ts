import { revokeKeysOfRemovedMember } from '../../shared/domain/api-keys/api-keys';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { table } from '../../shared/storage/dynamo';

/** Personal keys of removed members (member.removed): every one is revoked. */
export const handler = eventConsumer('removedMemberKeys', async (event) => {
  const revoked = await revokeKeysOfRemovedMember(table(), event, new Date());
  logger.info('revoked the personal keys of a removed member', { event_id: event.id, org_id: event.org_id, user_id: event.resource.id, revoked });
});
