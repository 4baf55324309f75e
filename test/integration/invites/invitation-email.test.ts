import { sendInvitationEmail } from '../../../shared/domain/invites/send-invitation-email';
import { eventConsumer } from '../../../shared/events/event-consumer';
import { MailError } from '../../../shared/mail/mailer';
import { EVENT_CONSUMERS } from '../../../shared/events/event-functions';
import { sentEmails } from '../../support/api';
import { eventsInclude, queuedEvents } from '../../support/events';
import { latestToken } from '../../support/invite-mail';
import {
  accept,
  appUrl,
  db,
  delivered,
  idTokenOf,
  invitedAt,
  invitedWithToken,
  listed,
  MINUTE_MS,
  resend,
  runtime,
  seededOrg,
  sendEventOf,
  SENT_ONCE,
} from '../../support/invites';

/**
 * The invitation email (the invitation mail consumer, fed by the deployment's event pipeline:
 * the table's stream -> processor -> consumer, through the local SES emulator): a failing
 * mailer's attempts recorded on the invite until it fails, and no second email for a
 * redelivered event. The organizations and helpers of the invitations suites:
 * test/support/invites.ts.
 */

describe('the invitation email (the invitation mail consumer)', () => {
  const MAX_ATTEMPTS = EVENT_CONSUMERS.sendInvitationEmail.maxAttempts;

  it('fault injection, a failing mailer: retried with each attempt and its code recorded, failed after the last (invite.email_failed); a resend is then emailed and its link works', async () => {
    const org = await seededOrg('mailfail');
    const address = org.address('unlucky');
    // Sent a minute ago with a 2 s TTL: the deployment's own consumer finds it expired and sends
    // nothing, leaving it to a consumer in this process whose clock is at the send and whose mailer fails.
    const sentAt = new Date(Date.now() - MINUTE_MS);
    const sent = await invitedAt(sentAt, org, { email: address }, { ttlSeconds: 2 });
    const event = await sendEventOf(org, sent.id);
    const down = jest.fn(async () => {
      throw new MailError('MAIL_UNAVAILABLE');
    });
    const handler = eventConsumer('sendInvitationEmail', async (e, delivery) => {
      await sendInvitationEmail({ db, mail: down, now: () => sentAt, settings: { appUrl } }, e, delivery);
    });
    const shown = async () => (await listed(org)).find((i) => i.id === sent.id);

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const batch = queuedEvents([event], attempt);
      expect(await handler(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: batch.Records[0]?.messageId }] });
      expect(await shown()).toMatchObject({
        email_status: 'queued',
        email_sent_at: null,
        email_attempts: attempt,
        email_last_error: 'MAIL_UNAVAILABLE',
      });
    }
    expect(await handler(queuedEvents([event], MAX_ATTEMPTS))).toEqual({ batchItemFailures: [] });
    expect(down).toHaveBeenCalledTimes(MAX_ATTEMPTS);
    expect(await shown()).toEqual({
      ...sent,
      status: 'expired',
      email_status: 'failed',
      email_sent_at: null,
      email_attempts: MAX_ATTEMPTS,
      email_last_error: 'MAIL_UNAVAILABLE',
    });
    const failed = (await eventsInclude(org.org, ['invite.email_failed'], sent.id)).find((e) => e.type === 'invite.email_failed');
    expect(failed).toMatchObject({
      actor: null,
      resource: { type: 'invite', id: sent.id },
      data: { email: address, attempts: MAX_ATTEMPTS, error: 'MAIL_UNAVAILABLE' },
    });
    expect(await sentEmails(address)).toEqual([]);

    // Resend works on it (through the API); the deployment's consumer emails the new send.
    expect((await resend(org, sent.id)).body).toEqual({ success: true });
    expect(await delivered(org, sent.id)).toMatchObject({ status: 'pending', ...SENT_ONCE });
    expect((await accept(await latestToken(address), await idTokenOf({ email: address }))).body).toEqual({
      org_id: org.org,
      role: 'member',
      status: 'active',
    });
    await eventsInclude(org.org, ['invite.resent', 'invite.email_sent', 'invite.accepted'], sent.id);
  });

  it('a redelivered event sends no second email (the consumer’s function module, loaded here on the deployment’s table and SES)', async () => {
    const org = await seededOrg('maildup');
    const address = org.address('once');
    const { invite: sent } = await invitedWithToken(org, { email: address });
    const event = await sendEventOf(org, sent.id);
    const saved = { ...process.env };
    Object.assign(process.env, {
      TABLE_NAME: runtime.tableName,
      DYNAMODB_ENDPOINT: runtime.dynamoDbEndpoint,
      AWS_REGION: runtime.region,
      SES_ENDPOINT: runtime.sesEndpoint,
      APP_URL: appUrl,
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    });
    try {
      const { handler } = await import('../../../functions/events/send-invitation-email');
      expect(await handler(queuedEvents([event, event], 2))).toEqual({ batchItemFailures: [] });
    } finally {
      process.env = saved;
    }
    expect(await sentEmails(address)).toHaveLength(1);
    expect((await listed(org)).find((i) => i.id === sent.id)).toEqual(sent);
  });
});
