import path from 'node:path';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { busEntry } from '../../shared/events/event-bus';
import type { DomainEvent } from '../../shared/schemas/event-catalog';
import type { EventConsumerDefinition, EventConsumerName } from '../../shared/events/event-functions';
import { pipelineFiles, writeDeadLetter } from './dead-letter-store';
import type { QueueEmulator } from './queue-emulator';
import type { ServiceEvent } from './service-event';

/** What a consumer's local queue needs of the pipeline's options. */
export interface ConsumerQueueOptions {
  repoRoot: string;
  dataDir: string;
  /** Delay before a failed delivery is tried again, per attempt so far (the queue's visibility timeout, scaled down). */
  retryDelayMs: number;
  /** The SQS emulator the consumers delay their own messages through (startQueueEmulator). */
  queues: QueueEmulator;
  /** Scales the delays consumers ask for (1: as asked; the tests use a thousandth). */
  queueDelayScale: number;
}

/** Messages of one consumer invocation at most (an SQS event source's batch size). */
const BATCH_SIZE = 10;

/** A message on a consumer's local queue: a domain event, or an AWS service event its rule matches. */
interface Delivery {
  messageId: string;
  event: DomainEvent | ServiceEvent;
  attempt: number;
  notBefore: number;
}

const isServiceEvent = (event: DomainEvent | ServiceEvent): event is ServiceEvent => 'detail-type' in event;

/**
 * One consumer's local queue, as the stack's SQS queue of the consumer: batches of ready
 * messages to its handler, retries with a delay, then the dead-letter store.
 */
export class ConsumerQueue {
  private readonly messages: Delivery[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private sequence = 0;

  constructor(
    private readonly name: EventConsumerName,
    private readonly definition: EventConsumerDefinition,
    private readonly options: ConsumerQueueOptions,
  ) {}

  offer(event: DomainEvent): void {
    if (!(this.definition.eventTypes as readonly string[]).includes(event.type)) return;
    this.enqueue(event);
  }

  /** An AWS service event, queued when the consumer's rule names its source and detail-type (serviceEvents). */
  offerServiceEvent(event: ServiceEvent): void {
    if (!this.definition.serviceEvents?.some((pattern) => pattern.source === event.source && pattern.detailType === event['detail-type']))
      return;
    this.enqueue(event);
  }

  private enqueue(event: DomainEvent | ServiceEvent): void {
    this.messages.push({ messageId: `${this.name}-${++this.sequence}`, event, attempt: 1, notBefore: 0 });
    this.wake?.();
  }

  start(): void {
    this.running = true;
    this.idle = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.idle;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const now = Date.now();
      const ready = this.messages.filter((message) => message.notBefore <= now).slice(0, BATCH_SIZE);
      if (!ready.length) {
        const next = Math.min(...this.messages.map((message) => message.notBefore));
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, Number.isFinite(next) ? Math.max(next - now, 5) : 1_000);
        });
        continue;
      }
      for (const message of ready) this.messages.splice(this.messages.indexOf(message), 1);
      const failed = await this.deliver(ready);
      for (const message of ready.filter((m) => failed.has(m.messageId))) {
        if (message.attempt >= this.definition.maxAttempts) {
          writeDeadLetter(pipelineFiles(this.options.dataDir).deadLetters, {
            id: message.event.id + '-' + this.name,
            consumer: this.name,
            attempts: message.attempt,
            failed_at: new Date().toISOString(),
            ...(isServiceEvent(message.event) ? { service_event: message.event } : { event: message.event }),
          });
        } else {
          // A delay the consumer asked for itself (ChangeMessageVisibility), or the queue's own retry delay.
          const asked = this.options.queues.takeVisibility(receiptHandleOf(message));
          const delayMs = asked === undefined ? this.options.retryDelayMs * message.attempt : asked * 1000 * this.options.queueDelayScale;
          this.messages.push({ ...message, attempt: message.attempt + 1, notBefore: Date.now() + delayMs });
        }
      }
    }
  }

  /** Calls the handler with one SQS event; the ids of the messages that failed (all of them when it throws). */
  private async deliver(messages: Delivery[]): Promise<Set<string>> {
    try {
      // Loaded on first use, as Lambda loads a function on its first invocation.
      const { handler } = (await import(path.join(this.options.repoRoot, this.definition.handler))) as {
        handler: (event: SQSEvent) => Promise<SQSBatchResponse>;
      };
      const response = await handler(sqsEventOf(this.name, messages));
      return new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      console.error(`local event pipeline: ${this.name} failed`, error);
      return new Set(messages.map((message) => message.messageId));
    }
  }
}

/** A receipt handle is new for every receive of a message, as in SQS. */
function receiptHandleOf(message: Delivery): string {
  return `${message.messageId}#${message.attempt}`;
}

/** The EventBridge event a rule forwards: a domain event in its envelope, a service event as the service put it. */
function bodyOf(event: DomainEvent | ServiceEvent): string {
  if (isServiceEvent(event)) return JSON.stringify(event);
  return JSON.stringify({
    version: '0',
    id: event.id,
    source: busEntry(event, 'local').Source,
    'detail-type': event.type,
    time: event.occurred_at,
    detail: event,
  });
}

/** The SQS event a consumer's queue delivers: each body is the EventBridge event the rule forwarded. */
function sqsEventOf(consumer: EventConsumerName, messages: Delivery[]): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.messageId,
      receiptHandle: receiptHandleOf(message),
      body: bodyOf(message.event),
      attributes: {
        ApproximateReceiveCount: String(message.attempt),
        SentTimestamp: String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${consumer}`,
      awsRegion: 'us-east-1',
    })),
  };
}
