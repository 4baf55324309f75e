import { revokeRemovedMemberKeys } from '../../shared/domain/api-keys/revoke-removed-member-keys';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { apiKeyDeps } from '../../shared/wiring/api-key-deps';

/** Personal keys of removed members (member.removed): every one is revoked. */
export const handler = eventConsumer('revokeRemovedMemberKeys', async (event) => {
  const { db, now } = apiKeyDeps();
  const revoked = await revokeRemovedMemberKeys(db, event, now());
  logger.info('revoked the personal keys of a removed member', {
    event_id: event.id,
    org_id: event.org_id,
    user_id: event.resource.id,
    revoked,
  });
});
