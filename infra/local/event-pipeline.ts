import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { DynamoDBRecord, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { busEntry } from '../../shared/events/event-bus';
import type { DomainEvent } from '../../shared/events/event-catalog';
import { processStreamRecords } from '../../shared/events/stream-processor';
import { EVENT_CONSUMERS, type EventConsumerDefinition, type EventConsumerName } from '../../shared/routes';

/**
 * The stack's event pipeline on one machine, for `npm start` and the tests: DynamoDB Local's
 * stream → the same stream processor → for each event, the consumers whose rule names its
 * type (EVENT_CONSUMERS, as the stack's EventBridge rules) → each consumer's handler module,
 * called with the SQS event its queue would deliver. A failed delivery is tried again after
 * a delay, up to the consumer's maxAttempts (ApproximateReceiveCount counts up), then it goes
 * to a local dead-letter store: one JSON file per message in <dataDir>/dead-letters/.
 *
 * Files in the data directory let the CLI watch and steer it without talking to this process:
 * - events.jsonl: every event put on the "bus", one JSON line each (`cli events tail`);
 * - dead-letters/<id>.json: undeliverable messages (`cli dlq list`);
 * - redrive/<id>.json: messages the CLI sends back (`cli dlq redrive`), picked up here;
 * - stream-position.json: how far each stream shard was processed, so a restart resumes.
 */
export interface EventPipelineOptions {
  repoRoot: string;
  dataDir: string;
  dynamoDbEndpoint: string;
  tableName: string;
  region: string;
  /** Delay before a failed delivery is tried again, per attempt so far (the queue's visibility timeout, scaled down). */
  retryDelayMs: number;
  /** How often an idle stream is read. */
  pollIntervalMs?: number;
  /** The SQS emulator the consumers delay their own messages through (startQueueEmulator). */
  queues: QueueEmulator;
  /** Scales the delays consumers ask for (1: as asked; the tests use a thousandth). */
  queueDelayScale: number;
}

/**
 * The one SQS action a consumer calls on its own queue, ChangeMessageVisibility, served
 * over SQS's JSON protocol so the dispatcher's real SDK client talks to it: it notes the
 * delay asked for each receipt handle, and the local queue applies it.
 */
export interface QueueEmulator {
  endpoint: string;
  /** The delay in seconds asked for a received message, taken (once) by its queue. */
  takeVisibility(receiptHandle: string): number | undefined;
  stop(): Promise<void>;
}

export async function startQueueEmulator(host: string): Promise<QueueEmulator> {
  const visibility = new Map<string, number>();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target'] ?? '');
      const reply = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        response.end(JSON.stringify(payload));
      };
      try {
        const input = JSON.parse(body || '{}') as { ReceiptHandle?: string; VisibilityTimeout?: number };
        if (action !== 'AmazonSQS.ChangeMessageVisibility' || !input.ReceiptHandle || typeof input.VisibilityTimeout !== 'number') {
          return reply(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `The local SQS emulator serves ChangeMessageVisibility only, not ${action}` });
        }
        visibility.set(input.ReceiptHandle, input.VisibilityTimeout);
        reply(200, {});
      } catch {
        reply(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'The body is not JSON' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  return {
    endpoint: `http://${host}:${(server.address() as AddressInfo).port}`,
    takeVisibility(receiptHandle) {
      const seconds = visibility.get(receiptHandle);
      visibility.delete(receiptHandle);
      return seconds;
    },
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export interface EventPipeline {
  stop(): Promise<void>;
}

/** Messages of one consumer invocation at most (an SQS event source's batch size). */
const BATCH_SIZE = 10;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A message on a consumer's local queue. */
interface Delivery {
  messageId: string;
  event: DomainEvent;
  attempt: number;
  notBefore: number;
}

/** An undeliverable message, as `cli dlq list` shows it. */
export interface DeadLetter {
  id: string;
  /** A consumer (EVENT_CONSUMERS) or 'processor' (a stream record the processor could not turn into events). */
  consumer: EventConsumerName | 'processor';
  attempts: number;
  failed_at: string;
  event?: DomainEvent;
  record?: DynamoDBRecord;
}

/** The local pipeline's files in a data directory (shared with the CLI). */
export function pipelineFiles(dataDir: string) {
  return {
    events: path.join(dataDir, 'events.jsonl'),
    deadLetters: path.join(dataDir, 'dead-letters'),
    redrive: path.join(dataDir, 'redrive'),
    streamPosition: path.join(dataDir, 'stream-position.json'),
  };
}

/** Starts reading the table's stream and delivering its events. */
export async function startEventPipeline(options: EventPipelineOptions): Promise<EventPipeline> {
  const files = pipelineFiles(options.dataDir);
  mkdirSync(files.deadLetters, { recursive: true });
  mkdirSync(files.redrive, { recursive: true });
  const consumers = new Map(
    (Object.entries(EVENT_CONSUMERS) as [EventConsumerName, EventConsumerDefinition][]).map(([name, definition]) => [
      name,
      new LocalQueue(name, definition, options),
    ]),
  );

  /** The local bus: record the event, and queue it for every consumer whose rule names its type. */
  const publish = async (events: readonly DomainEvent[]) => {
    for (const event of events) {
      appendFileSync(files.events, `${JSON.stringify(event)}\n`);
      for (const queue of consumers.values()) queue.offer(event);
    }
  };

  const stream = new StreamReader(options, files.streamPosition, async (records) => {
    for (let attempt = 1; ; attempt++) {
      const { batchItemFailures } = await processStreamRecords(records, publish);
      if (!batchItemFailures.length) return;
      const failedAt = records.findIndex((record) => record.dynamodb?.SequenceNumber === batchItemFailures[0].itemIdentifier);
      records = records.slice(Math.max(failedAt, 0));
      if (attempt >= 3) {
        // As the stack's on-failure destination: the record that keeps failing is set aside, the stream goes on.
        writeDeadLetter(files.deadLetters, { id: `processor-${records[0].eventID}`, consumer: 'processor', attempts: attempt, failed_at: new Date().toISOString(), record: records[0] });
        records = records.slice(1);
        attempt = 0;
        if (!records.length) return;
      }
      await delay(options.retryDelayMs);
    }
  });

  const redrive = setInterval(() => {
    for (const letter of takeRedriven(files.redrive)) {
      if (letter.consumer !== 'processor' && letter.event) consumers.get(letter.consumer)?.offer(letter.event);
    }
  }, 200);
  await stream.start();
  for (const queue of consumers.values()) queue.start();
  return {
    async stop() {
      clearInterval(redrive);
      await stream.stop();
      await Promise.all([...consumers.values()].map((queue) => queue.stop()));
    },
  };
}

/** One consumer's queue: batches of ready messages to its handler, retries with a delay, then the dead-letter store. */
class LocalQueue {
  private readonly messages: Delivery[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private sequence = 0;

  constructor(
    private readonly name: EventConsumerName,
    private readonly definition: EventConsumerDefinition,
    private readonly options: EventPipelineOptions,
  ) {}

  offer(event: DomainEvent): void {
    if (!(this.definition.eventTypes as readonly string[]).includes(event.type)) return;
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
            event: message.event,
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
      const { handler } = (await import(path.join(this.options.repoRoot, this.definition.handler))) as { handler: (event: SQSEvent) => Promise<SQSBatchResponse> };
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

/** The SQS event a consumer's queue delivers: each body is the EventBridge event the rule forwarded. */
function sqsEventOf(consumer: EventConsumerName, messages: Delivery[]): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.messageId,
      receiptHandle: receiptHandleOf(message),
      body: JSON.stringify({ version: '0', id: message.event.id, source: busEntry(message.event, 'local').Source, 'detail-type': message.event.type, time: message.event.occurred_at, detail: message.event }),
      attributes: { ApproximateReceiveCount: String(message.attempt), SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${consumer}`,
      awsRegion: 'us-east-1',
    })),
  };
}

/** Follows every shard of the table's stream in order, from where the last run stopped. */
class StreamReader {
  private readonly client: DynamoDBStreamsClient;
  private readonly positions: Record<string, string>;
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: EventPipelineOptions,
    private readonly positionFile: string,
    private readonly onRecords: (records: DynamoDBRecord[]) => Promise<void>,
  ) {
    this.client = new DynamoDBStreamsClient({ endpoint: options.dynamoDbEndpoint, region: options.region, credentials });
    this.positions = existsSync(positionFile) ? (JSON.parse(readFileSync(positionFile, 'utf8')) as Record<string, string>) : {};
  }

  async start(): Promise<void> {
    const table = new DynamoDBClient({ endpoint: this.options.dynamoDbEndpoint, region: this.options.region, credentials });
    const { Table } = await table.send(new DescribeTableCommand({ TableName: this.options.tableName }));
    table.destroy();
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`Table ${this.options.tableName} has no stream`);
    this.running = true;
    this.loopDone = this.loop(streamArn);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loopDone;
    this.client.destroy();
  }

  private async loop(streamArn: string): Promise<void> {
    const iterators = new Map<string, string | undefined>();
    const finished = new Set<string>();
    let lastDescribe = 0;
    while (this.running) {
      try {
        if (Date.now() - lastDescribe > 1_000) {
          lastDescribe = Date.now();
          await this.discoverShards(streamArn, iterators, finished);
        }
        let read = 0;
        for (const [shardId, iterator] of iterators) {
          if (!iterator) continue;
          const { Records = [], NextShardIterator } = await this.client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
          iterators.set(shardId, NextShardIterator);
          if (!NextShardIterator) finished.add(shardId);
          if (!Records.length) continue;
          read += Records.length;
          await this.onRecords(Records.map(lambdaRecordOf));
          this.positions[shardId] = Records[Records.length - 1].dynamodb?.SequenceNumber ?? this.positions[shardId];
          writeFileSync(this.positionFile, JSON.stringify(this.positions));
        }
        if (!read) await delay(this.options.pollIntervalMs ?? 100);
      } catch (error) {
        if (!this.running) return;
        console.error('local event pipeline: stream read failed', error);
        iterators.clear();
        finished.clear();
        lastDescribe = 0;
        await delay(1_000);
      }
    }
  }

  /** Opens an iterator on every shard not yet followed: after the last processed record, or from its start. */
  private async discoverShards(streamArn: string, iterators: Map<string, string | undefined>, finished: Set<string>): Promise<void> {
    const { StreamDescription } = await this.client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (!shardId || iterators.has(shardId) || finished.has(shardId)) continue;
      // A child shard starts once its parent has been read to its end, so changes of one item stay in order.
      if (shard.ParentShardId && iterators.has(shard.ParentShardId) && !finished.has(shard.ParentShardId)) continue;
      const position = this.positions[shardId];
      const { ShardIterator } = await this.client.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(position ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      iterators.set(shardId, ShardIterator);
    }
  }
}

/** A stream record as Lambda passes it (epoch seconds instead of the SDK's Date; images in DynamoDB's JSON). */
function lambdaRecordOf(record: StreamRecord): DynamoDBRecord {
  const { ApproximateCreationDateTime, NewImage, OldImage, ...dynamodb } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    eventVersion: record.eventVersion,
    awsRegion: record.awsRegion,
    userIdentity: record.userIdentity,
    dynamodb: {
      ...(dynamodb as DynamoDBRecord['dynamodb']),
      ...(NewImage ? { NewImage: withEmptyMaps(NewImage) } : {}),
      ...(OldImage ? { OldImage: withEmptyMaps(OldImage) } : {}),
      ApproximateCreationDateTime: ApproximateCreationDateTime ? Math.floor(ApproximateCreationDateTime.getTime() / 1000) : undefined,
    },
  };
}

/**
 * The streams client reads an empty map attribute (`{"M": {}}` on the wire) as an attribute
 * value with no member (`{}`), which unmarshall refuses; Lambda receives the wire JSON. Puts
 * the map back, at any depth.
 */
function withEmptyMaps(image: Record<string, unknown>): NonNullable<DynamoDBRecord['dynamodb']>['NewImage'] {
  const fix = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const attribute = value as Record<string, unknown>;
    if (Object.keys(attribute).length === 0) return { M: {} };
    if (attribute.M) return { M: Object.fromEntries(Object.entries(attribute.M as Record<string, unknown>).map(([key, item]) => [key, fix(item)])) };
    if (Array.isArray(attribute.L)) return { L: attribute.L.map(fix) };
    return attribute;
  };
  return Object.fromEntries(Object.entries(image).map(([key, item]) => [key, fix(item)])) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
}

function writeDeadLetter(dir: string, letter: DeadLetter): void {
  writeFileSync(path.join(dir, `${letter.id}.json`), JSON.stringify(letter, null, 2));
}

/** Undeliverable messages, oldest first. */
export function listDeadLetters(dataDir: string): DeadLetter[] {
  const dir = pipelineFiles(dataDir).deadLetters;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as DeadLetter)
    .sort((a, b) => a.failed_at.localeCompare(b.failed_at));
}

/** Sends dead letters back to their consumer (all, or those of one consumer): the running pipeline picks them up. */
export function redriveDeadLetters(dataDir: string, consumer?: string): DeadLetter[] {
  const files = pipelineFiles(dataDir);
  mkdirSync(files.redrive, { recursive: true });
  const moved = listDeadLetters(dataDir).filter((letter) => letter.consumer !== 'processor' && (!consumer || letter.consumer === consumer));
  for (const letter of moved) renameSync(path.join(files.deadLetters, `${letter.id}.json`), path.join(files.redrive, `${letter.id}.json`));
  return moved;
}

function takeRedriven(dir: string): DeadLetter[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => {
      const letter = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as DeadLetter;
      rmSync(path.join(dir, file));
      return letter;
    });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
