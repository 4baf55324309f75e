import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { instrumented, type LambdaHandler } from '../observability/instrumentation';
import { logger } from '../observability/logger';
import { EVENT_CONSUMERS, type EventConsumerName } from './event-functions';
import { withChangeContext } from '../storage/change-stamp';
import { DomainEventSchema, type DomainEvent } from '../schemas/event-catalog';

/** Which delivery of an event a consumer is handling. */
export interface Delivery {
  /** 1 for the first delivery (SQS ApproximateReceiveCount). */
  attempt: number;
  /** True on the last delivery before the event goes to the dead-letter queue. */
  last: boolean;
}

/** The EventBridge event as an SQS target receives it: the domain event is its `detail`. */
const BridgedEvent = v.object({ 'detail-type': v.string(), source: v.string(), detail: DomainEventSchema });

/**
 * Parses one queued message into its domain event; throws for a message that is not one
 * (it then goes to the dead-letter queue after the queue's attempts, where it can be read).
 */
export function domainEventOf(record: Pick<SQSRecord, 'body'>): DomainEvent {
  return v.parse(BridgedEvent, JSON.parse(record.body)).detail;
}

/** A handler may ask for its message back later (a retry it schedules itself) instead of being done with it. */
export type ConsumerResult = void | { retryAfterSeconds: number };

export interface ConsumerOptions {
  /** Handle the batch's messages at once rather than one after another (handlers that wait on the network). */
  parallel?: boolean;
  /** Delays a message's next delivery (SQS ChangeMessageVisibility); required by handlers that return retryAfterSeconds. */
  retryLater?: (record: SQSRecord, seconds: number) => Promise<void>;
}

/**
 * An event consumer's Lambda handler (SQS event source with ReportBatchItemFailures): each
 * message's domain event is handled on its own, in a change context naming no actor and the
 * event's correlation id, so writes it makes are attributed to the service and traceable to
 * the request that caused them. A failed message is reported alone and retried by the queue
 * after the consumer's retryAfterSeconds; the others of the batch are done. A handler that
 * asks for its message back in N seconds has it delayed so and reported the same way. The
 * invocation is traced, and the business metrics it counted are published when it ends.
 */
export function eventConsumer(
  name: EventConsumerName,
  handle: (event: DomainEvent, delivery: Delivery) => Promise<ConsumerResult>,
  options: ConsumerOptions = {},
): LambdaHandler<SQSEvent, SQSBatchResponse> {
  const { maxAttempts } = EVENT_CONSUMERS[name];
  const handleRecord = async (record: SQSRecord): Promise<boolean> => {
    const attempt = Number(record.attributes?.ApproximateReceiveCount ?? '1');
    try {
      const domainEvent = domainEventOf(record);
      if (!options.parallel) logger.setCorrelationId(domainEvent.correlation_id ?? undefined);
      const result = await withChangeContext({ actor: null, correlationId: domainEvent.correlation_id }, () =>
        handle(domainEvent, { attempt, last: attempt >= maxAttempts }),
      );
      if (!result) return true;
      if (!options.retryLater) throw new Error(`${name} asked for a retry but has no way to delay its message`);
      await options.retryLater(record, result.retryAfterSeconds);
      return false;
    } catch (error) {
      logger.error('event consumer failed', { consumer: name, message_id: record.messageId, attempt, error: errorName(error) });
      return false;
    }
  };
  return instrumented(
    async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const done: boolean[] = [];
      if (options.parallel) done.push(...(await Promise.all(event.Records.map(handleRecord))));
      else for (const record of event.Records) done.push(await handleRecord(record));
      return {
        batchItemFailures: event.Records.filter((_, index) => !done[index]).map((record) => ({ itemIdentifier: record.messageId })),
      };
    },
    { consumer: name },
  );
}

/** An error's name and message for the log: never a stack with data in it. */
function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
