import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventPublisher } from '../../shared/events/event-bus';
import { processStreamRecords } from '../../shared/events/stream-processor';
import { instrumented } from '../../shared/observability/instrumentation';

/** The table's stream (new and old images) → domain events on the event bus. */
export const handler = instrumented(
  async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const { batchItemFailures } = await processStreamRecords(event.Records, eventPublisher());
    return { batchItemFailures };
  },
  { function: 'processTableStream' },
);
