import { MessageRejected, SendEmailCommand, SESv2Client, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { createSesMailer, MailError, mailErrorCode, sesErrorCode } from '../../shared/mail/mailer';

/**
 * The SES mailer's failures, as the invitation mail consumer records them: a code that says
 * whether the email was refused or the service unavailable, never the provider's message.
 */
const serviceError = (name: string, httpStatusCode?: number) =>
  Object.assign(new Error(`${name} for nina@example.com`), { name, $metadata: { httpStatusCode } });

describe('sesErrorCode', () => {
  it.each([
    ['MessageRejected', 400],
    ['MailFromDomainNotVerifiedException', 400],
    ['AccountSuspendedException', 400],
    ['SendingPausedException', 400],
    ['BadRequestException', 400],
    ['NotFoundException', 404],
    ['AccessDeniedException', 403],
  ])('%s (%i) refuses the email: MAIL_REJECTED', (name, status) => {
    expect(sesErrorCode(serviceError(name, status))).toBe('MAIL_REJECTED');
  });

  it.each([
    ['TooManyRequestsException', 429],
    ['LimitExceededException', 400],
    ['InternalFailure', 500],
    ['ServiceUnavailable', 503],
    ['ECONNREFUSED', undefined],
  ])('%s (%s) is the service not answering: MAIL_UNAVAILABLE', (name, status) => {
    expect(sesErrorCode(serviceError(name, status))).toBe('MAIL_UNAVAILABLE');
  });

  it('anything a mailer throws that is not a MailError reads as MAIL_UNAVAILABLE', () => {
    expect(mailErrorCode(new MailError('MAIL_REJECTED'))).toBe('MAIL_REJECTED');
    expect(mailErrorCode(new Error('socket hang up'))).toBe('MAIL_UNAVAILABLE');
    expect(mailErrorCode('nothing')).toBe('MAIL_UNAVAILABLE');
  });
});

describe('createSesMailer', () => {
  const ses = mockClient(SESv2Client);
  const mail = createSesMailer({ fromAddress: 'no-reply@example.com', region: 'us-east-1' });
  const email = { to: 'nina@example.com', subject: 'Hi', text: 'text', html: '<p>html</p>' };
  afterEach(() => ses.reset());

  it('sends one simple email from the configured sender', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await mail(email);
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input).toMatchObject({
      FromEmailAddress: 'no-reply@example.com',
      Destination: { ToAddresses: ['nina@example.com'] },
    });
  });

  it('turns SES failures into MailErrors with their code, keeping the original as the cause only', async () => {
    const rejected = new MessageRejected({
      message: 'Email address is not verified: nina@example.com',
      $metadata: { httpStatusCode: 400 },
    });
    ses
      .on(SendEmailCommand)
      .rejectsOnce(rejected)
      .rejectsOnce(new TooManyRequestsException({ message: 'slow down', $metadata: { httpStatusCode: 429 } }));
    await expect(mail(email)).rejects.toMatchObject({
      name: 'MailError',
      code: 'MAIL_REJECTED',
      message: 'Email not sent: MAIL_REJECTED',
      cause: rejected,
    });
    await expect(mail(email)).rejects.toMatchObject({ code: 'MAIL_UNAVAILABLE' });
  });
});
