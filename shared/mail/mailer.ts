import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends email: SES in AWS, the SES emulator locally. */
export type Mailer = (email: Email) => Promise<void>;

export function createSesMailer(options: { fromAddress: string; region: string; endpoint?: string }): Mailer {
  const client = new SESv2Client({
    region: options.region,
    endpoint: options.endpoint,
    ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return async ({ to, subject, text, html }) => {
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
