import { sendInvitationEmail } from '../../shared/domain/invites/send-invitation-email';
import { eventConsumer } from '../../shared/events/event-consumer';
import { logger } from '../../shared/observability/logger';
import { countMetric } from '../../shared/observability/metrics';
import { invitationMailDeps } from '../../shared/wiring/invite-deps';

/** invite.created, invite.resent → the invitation email, with a fresh link; its delivery state on the invite. */
export const handler = eventConsumer('sendInvitationEmail', async (event, delivery) => {
  const result = await sendInvitationEmail(invitationMailDeps(), event, delivery);
  // Ids and outcome only: never the address or the link.
  logger.info('invitation email', { event_id: event.id, invite_id: event.resource.id, attempt: delivery.attempt, ...result });
  if (result.outcome === 'sent') countMetric('InvitesSent');
  if (result.outcome === 'failed') countMetric('InviteEmailsFailed');
});
