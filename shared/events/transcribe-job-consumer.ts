import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { instrumented, type LambdaHandler } from '../observability/instrumentation';
import { logger } from '../observability/logger';
import { withChangeContext } from '../storage/change-stamp';

/** Transcribe's job state change, as the rule on the account's default bus forwards it to the finisher's queue. */
const JobStateChange = v.object({
  source: v.literal('aws.transcribe'),
  'detail-type': v.literal('Transcribe Job State Change'),
  detail: v.object({ TranscriptionJobName: v.string(), TranscriptionJobStatus: v.string() }),
});

/** The job whose state changed. */
export interface JobStateChange {
  jobName: string;
  status: string;
}

/** Reads one queued message as Transcribe's job state change; throws for any other message (it then goes to the dead-letter queue). */
export function jobStateChangeOf(record: Pick<SQSRecord, 'body'>): JobStateChange {
  const { detail } = v.parse(JobStateChange, JSON.parse(record.body));
  return { jobName: detail.TranscriptionJobName, status: detail.TranscriptionJobStatus };
}

/**
 * The finisher's Lambda handler (SQS event source with ReportBatchItemFailures), as
 * eventConsumer is for domain events: each message on its own, in a change context naming no
 * actor (the service's writes), a failed one reported alone and retried by the queue.
 */
export function transcribeJobConsumer(handle: (change: JobStateChange) => Promise<void>): LambdaHandler<SQSEvent, SQSBatchResponse> {
  const handleRecord = async (record: SQSRecord): Promise<boolean> => {
    try {
      const change = jobStateChangeOf(record);
      await withChangeContext({ actor: null, correlationId: null }, () => handle(change));
      return true;
    } catch (error) {
      logger.error('transcription finisher failed', {
        message_id: record.messageId,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      return false;
    }
  };
  return instrumented(
    async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const failed: string[] = [];
      for (const record of event.Records) if (!(await handleRecord(record))) failed.push(record.messageId);
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    },
    { consumer: 'finishTranscriptionJob' },
  );
}
