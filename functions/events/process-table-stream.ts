import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventPublisher } from '../../shared/events/event-bus';
import { processStreamRecords } from '../../shared/events/stream-processor';

/** The table's stream (new and old images) → domain events on the event bus. */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const { batchItemFailures } = await processStreamRecords(event.Records, eventPublisher());
  return { batchItemFailures };
};
