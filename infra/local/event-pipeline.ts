import { appendFileSync, mkdirSync } from 'node:fs';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import { processStreamRecords } from '../../shared/events/stream-processor';
import { EVENT_CONSUMERS, type EventConsumerDefinition, type EventConsumerName } from '../../shared/events/event-functions';
import { ConsumerQueue, type ConsumerQueueOptions } from './consumer-queue';
import { pipelineFiles, takeRedriven, writeDeadLetter } from './dead-letter-store';
import type { ServiceEvent } from './service-event';
import { StreamReader, type StreamReaderOptions } from './stream-reader';

/**
 * The stack's event pipeline on one machine, for `npm start` and the tests: DynamoDB Local's
 * stream (stream-reader.ts) → the same stream processor → for each event, the consumers whose
 * rule names its type (EVENT_CONSUMERS, as the stack's EventBridge rules) → each consumer's
 * queue (consumer-queue.ts), which calls its handler module with the SQS event the stack's
 * queue would deliver. A failed delivery is tried again after a delay, up to the consumer's
 * maxAttempts (ApproximateReceiveCount counts up), then it goes to the local dead-letter store
 * (dead-letter-store.ts: one JSON file per message in <dataDir>/dead-letters/, which the CLI
 * lists and redrives). Consumers delay their own messages through the SQS emulator
 * (queue-emulator.ts).
 *
 * AWS services put events of their own on the account's default bus (Transcribe's job state
 * changes): a local stand-in of such a service hands them to putServiceEvent, which queues them
 * for the consumers whose definition names their source and detail-type (serviceEvents), as the
 * stack's rules on the default bus do. They are not domain events: events.jsonl does not list them.
 */
export type EventPipelineOptions = ConsumerQueueOptions & StreamReaderOptions;

export interface EventPipeline {
  /** Delivers an AWS service event to the consumers whose rule matches it (see above). */
  putServiceEvent(event: ServiceEvent): void;
  stop(): Promise<void>;
}

/** Starts reading the table's stream and delivering its events. */
export async function startEventPipeline(options: EventPipelineOptions): Promise<EventPipeline> {
  const files = pipelineFiles(options.dataDir);
  mkdirSync(files.deadLetters, { recursive: true });
  mkdirSync(files.redrive, { recursive: true });
  const consumers = new Map(
    (Object.entries(EVENT_CONSUMERS) as [EventConsumerName, EventConsumerDefinition][]).map(([name, definition]) => [
      name,
      new ConsumerQueue(name, definition, options),
    ]),
  );

  /** The local bus: record the event, and queue it for every consumer whose rule names its type. */
  const publish = (events: readonly DomainEvent[]) => {
    for (const event of events) {
      appendFileSync(files.events, `${JSON.stringify(event)}\n`);
      for (const queue of consumers.values()) queue.offer(event);
    }
    return Promise.resolve();
  };

  const stream = new StreamReader(options, files.streamPosition, async (records) => {
    for (let attempt = 1; ; attempt++) {
      const { batchItemFailures } = await processStreamRecords(records, publish);
      if (!batchItemFailures.length) return;
      const failedAt = records.findIndex((record) => record.dynamodb?.SequenceNumber === batchItemFailures[0].itemIdentifier);
      records = records.slice(Math.max(failedAt, 0));
      if (attempt >= 3) {
        // As the stack's on-failure destination: the record that keeps failing is set aside, the stream goes on.
        writeDeadLetter(files.deadLetters, {
          id: `processor-${records[0].eventID}`,
          consumer: 'processor',
          attempts: attempt,
          failed_at: new Date().toISOString(),
          record: records[0],
        });
        records = records.slice(1);
        attempt = 0;
        if (!records.length) return;
      }
      await delay(options.retryDelayMs);
    }
  });

  const redrive = setInterval(() => {
    for (const letter of takeRedriven(files.redrive)) {
      if (letter.consumer === 'processor') continue;
      if (letter.event) consumers.get(letter.consumer)?.offer(letter.event);
      if (letter.service_event) consumers.get(letter.consumer)?.offerServiceEvent(letter.service_event);
    }
  }, 200);
  await stream.start();
  for (const queue of consumers.values()) queue.start();
  return {
    putServiceEvent(event) {
      for (const queue of consumers.values()) queue.offerServiceEvent(event);
    },
    async stop() {
      clearInterval(redrive);
      await stream.stop();
      await Promise.all([...consumers.values()].map((queue) => queue.stop()));
    },
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
