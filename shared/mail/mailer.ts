import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import { traced } from '../observability/tracer';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends email: SES in AWS, the SES emulator locally. It throws a MailError when the email did not leave. */
export type Mailer = (email: Email) => Promise<void>;

/**
 * Why an email did not leave, as a code safe to store and show (never a stack or the
 * provider's message, which may quote addresses):
 * - `MAIL_REJECTED`: the provider refused this email (a bad address, a sender not verified,
 *   sending paused for the account); trying again unchanged is unlikely to help.
 * - `MAIL_UNAVAILABLE`: the provider could not be reached or failed (network, throttling,
 *   a 5xx); trying again later may succeed.
 */
export const MAIL_ERROR_CODES = ['MAIL_REJECTED', 'MAIL_UNAVAILABLE'] as const;
export type MailErrorCode = (typeof MAIL_ERROR_CODES)[number];

/** An email that did not leave, with the code to record (see MAIL_ERROR_CODES). */
export class MailError extends Error {
  override readonly name = 'MailError';
  constructor(
    readonly code: MailErrorCode,
    options?: { cause?: unknown },
  ) {
    super(`Email not sent: ${code}`, options);
  }
}

/** The code of a failed send: a MailError's own, and MAIL_UNAVAILABLE for anything else a mailer threw. */
export function mailErrorCode(error: unknown): MailErrorCode {
  return error instanceof MailError ? error.code : 'MAIL_UNAVAILABLE';
}

/** SES errors that refuse the email itself, as opposed to the service failing to answer. */
const REJECTIONS = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'AccountSuspendedException',
  'SendingPausedException',
  'BadRequestException',
  'NotFoundException',
]);

/** SES errors that mean "not now": sending again later may succeed. */
const THROTTLING = new Set(['TooManyRequestsException', 'LimitExceededException']);

/** Classifies an SES client error: a refusal of the email, or the service unavailable. */
export function sesErrorCode(error: unknown): MailErrorCode {
  const { name = '', $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (REJECTIONS.has(name)) return 'MAIL_REJECTED';
  if (THROTTLING.has(name)) return 'MAIL_UNAVAILABLE';
  const status = $metadata?.httpStatusCode ?? 0;
  // Another 4xx refuses this request; a 5xx, a 429 or no answer at all (network) is the service's.
  return status >= 400 && status < 500 && status !== 429 ? 'MAIL_REJECTED' : 'MAIL_UNAVAILABLE';
}

/** A mailer sending through SES (or the SES emulator at `endpoint`); its failures are MailErrors. */
export function createSesMailer(options: { fromAddress: string; region: string; endpoint?: string }): Mailer {
  const client = traced(
    new SESv2Client({
      region: options.region,
      endpoint: options.endpoint,
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return async ({ to, subject, text, html }) => {
    try {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: options.fromAddress,
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              Subject: { Data: subject, Charset: 'UTF-8' },
              Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } catch (error) {
      throw new MailError(sesErrorCode(error), { cause: error });
    }
  };
}

let shared: Mailer | undefined;

/** The function's mailer, from config, created once per module. */
export function mailer(): Mailer {
  if (!shared) {
    const { invites, region } = config();
    shared = createSesMailer({ fromAddress: invites.fromAddress, region, endpoint: invites.sesEndpoint });
  }
  return shared;
}
