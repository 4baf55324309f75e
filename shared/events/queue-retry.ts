import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { config } from '../config';
import { traced } from '../observability/tracer';

/** SQS's longest visibility timeout: a message cannot be kept out of sight longer. */
const MAX_VISIBILITY_SECONDS = 43_200;

let client: SQSClient | undefined;

/**
 * The queue URL of the queue a record came from, from its ARN (`arn:aws:sqs:<region>:<account>:<name>`):
 * the function needs no setting for its own queue. Locally, the SQS emulator's endpoint.
 */
export function queueUrlOf(queueArn: string, endpoint?: string): string {
  const [, , , region, account, name] = queueArn.split(':');
  if (!region || !account || !name) throw new Error(`Not an SQS queue ARN: ${queueArn}`);
  return `${endpoint ?? `https://sqs.${region}.amazonaws.com`}/${account}/${name}`;
}

/**
 * Keeps a received message out of sight for `seconds` (at most 12 hours): reported as a
 * batch item failure afterwards, it comes back when they have passed, as a retry the
 * consumer scheduled itself.
 */
export async function delayMessage(record: SQSRecord, seconds: number): Promise<void> {
  const { region, webhooks } = config();
  client ??= traced(
    new SQSClient({
      region,
      ...(webhooks.sqsEndpoint ? { endpoint: webhooks.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  await client.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrlOf(record.eventSourceARN, webhooks.sqsEndpoint),
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))),
    }),
  );
}
