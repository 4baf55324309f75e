import { ensureTable } from '../../infra/local/emulators';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { localDeployment, sentEmails, type SentEmail } from './api';
import { EVENTUAL_MS, eventually } from './eventually';

/**
 * Reading invitation emails as the invitee would. The invitation mail consumer sends them
 * after the request that sent (or resent) the invite answered, so the helpers wait for
 * them (with `eventually`) in the local SES emulator, which the deployment's consumer uses.
 */

/** The token of the accept link in an email's text part. */
export function tokenIn(email: SentEmail): string {
  const token = /\/invites\/accept\?token=([A-Za-z0-9_-]+)/.exec(email.body.text ?? '')?.[1];
  if (!token) throw new Error(`no accept link in: ${email.body.text}`);
  return token;
}

/** Waits until at least `count` emails reached an address; returns them all, oldest first. */
export async function emailsTo(address: string, count = 1): Promise<SentEmail[]> {
  const emails = await eventually(
    () => sentEmails(address),
    (found) => found.length >= count,
  );
  if (emails.length < count) throw new Error(`${emails.length} email(s) to ${address} within ${EVENTUAL_MS} ms, not ${count}`);
  return emails;
}

/** The token of the `count`th invitation email to an address (the latest once it arrived). */
export async function latestToken(address: string, count = 1): Promise<string> {
  return tokenIn((await emailsTo(address, count))[count - 1]);
}

/**
 * A table of its own on the shared deployment's DynamoDB Local, which no event pipeline
 * reads: tests that call the invitation mail consumer themselves (a failing mailer, a
 * chosen clock, a redelivery) run on it, so the deployment's own consumer never races them.
 */
export async function isolatedTable(name: string): Promise<TableContext> {
  const { runtime } = localDeployment();
  const tableName = `${runtime.tableName}-${name}`;
  await ensureTable(runtime.dynamoDbEndpoint, tableName, runtime.region);
  return createTableContext({ tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint });
}
