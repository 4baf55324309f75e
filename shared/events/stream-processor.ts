import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { logger } from '../observability/logger';
import { eventsOfRecord } from './change-events';
import type { DomainEvent } from '../schemas/event-catalog';
import type { EventPublisher } from './event-bus';

/** What one batch of stream records became: how many events went out, and where the batch must resume. */
export interface ProcessedBatch extends DynamoDBBatchResponse {
  published: number;
}

/** How many events go out per publish call (EventBridge's PutEvents takes 10). */
const CHUNK = 10;

/**
 * Publishes the events of a batch of stream records in stream order. On a failure (an
 * unreadable item, the bus refusing) it stops and reports the first record not fully
 * published, so Lambda resumes the batch there (ReportBatchItemFailures): nothing is lost,
 * and what the retry sends again carries the same event ids, which consumers recognise.
 */
export async function processStreamRecords(records: readonly DynamoDBRecord[], publish: EventPublisher): Promise<ProcessedBatch> {
  const pending: { event: DomainEvent; record: number }[] = [];
  let published = 0;
  /** Publishes what is pending (all of it, or whole chunks only); the record to resume at when it fails. */
  const flush = async (all: boolean): Promise<number | undefined> => {
    while (pending.length >= (all ? 1 : CHUNK)) {
      const chunk = pending.slice(0, CHUNK);
      try {
        await publish(chunk.map((entry) => entry.event));
      } catch (error) {
        logFailure(records[chunk[0].record], error);
        return chunk[0].record;
      }
      pending.splice(0, chunk.length);
      published += chunk.length;
    }
    return undefined;
  };
  let resumeAt: number | undefined;
  for (const [index, record] of records.entries()) {
    try {
      pending.push(...eventsOfRecord(record).map((event) => ({ event, record: index })));
    } catch (error) {
      logFailure(record, error);
      resumeAt = (await flush(true)) ?? index;
      break;
    }
    resumeAt = await flush(false);
    if (resumeAt !== undefined) break;
  }
  resumeAt ??= await flush(true);
  const failed = resumeAt === undefined ? [] : [{ itemIdentifier: records[resumeAt].dynamodb?.SequenceNumber ?? '' }];
  return { published, batchItemFailures: failed };
}

function logFailure(record: DynamoDBRecord | undefined, error: unknown): void {
  logger.error('event processor: batch stops here', {
    sequence_number: record?.dynamodb?.SequenceNumber,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  });
}
