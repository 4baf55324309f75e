import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { MailAction } from '../../shared/function-permissions';

/** Invitation emails: a verified SES identity (domain or address), the sender address, and the web app's URL. */
export interface MailSettings {
  identity: string;
  fromAddress: string;
  appUrl: string;
}

/** What a stack without mail settings uses: a placeholder sender that SES refuses until one is configured. */
const PLACEHOLDER_MAIL: MailSettings = { identity: 'example.com', fromAddress: 'no-reply@example.com', appUrl: 'https://app.example.com' };

/** Sending invitation emails through SES. It creates no resource: the SES identity is verified outside the stack. */
export interface MailSender {
  /** The variables a function that sends email reads (shared/config.ts). */
  readonly environment: { SES_FROM_ADDRESS: string; APP_URL: string };
  /** Grants exactly these SES actions on the configured identity, from the configured sender only. */
  grantSend(role: iam.IRole, actions: readonly MailAction[]): void;
}

/** The stack's mail sender, from its props (placeholders when they leave mail out). */
export function mailSender(settings: MailSettings = PLACEHOLDER_MAIL): MailSender {
  return {
    environment: { SES_FROM_ADDRESS: settings.fromAddress, APP_URL: settings.appUrl },
    grantSend(role, actions) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: actions.map((a) => `ses:${a}`),
          // The ARN in the role's own stack (the root or a route stack): its region and account are that stack's pseudo parameters.
          resources: [Stack.of(role).formatArn({ service: 'ses', resource: 'identity', resourceName: settings.identity })],
          conditions: { StringEquals: { 'ses:FromAddress': settings.fromAddress } },
        }),
      );
    },
  };
}
